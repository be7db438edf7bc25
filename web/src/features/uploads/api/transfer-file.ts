/**
 * Sends one file to its signed upload link with XMLHttpRequest, which (unlike fetch) reports
 * upload progress. The link is signed, so no token goes with it; the config's headers do.
 */
import type { UploadLink } from './upload-api';

export class TransferError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'TransferError';
    this.status = status;
  }
}

export interface TransferOptions {
  /** The content type declared for the file. */
  contentType: string;
  /** Called with 0 to 100 as bytes go out. */
  onProgress: (percent: number) => void;
  signal?: AbortSignal;
  /** Makes the request object; tests pass a fake. */
  createRequest?: () => XMLHttpRequest;
}

/** Reads the `{message}` of an error body, or says what the status was. */
function messageOf(request: XMLHttpRequest): string {
  try {
    const body = JSON.parse(request.responseText) as { message?: string };
    if (body.message) return body.message;
  } catch {
    // Storage that is not ours (S3) answers XML; the status says enough.
  }
  return `upload failed with status ${request.status}`;
}

export function transferFile(file: Blob, link: UploadLink, options: TransferOptions): Promise<void> {
  const request = options.createRequest?.() ?? new XMLHttpRequest();
  return new Promise<void>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DOMException('the upload was cancelled', 'AbortError'));
      return;
    }
    request.open('PUT', link.upload_link);
    for (const [name, value] of Object.entries(link.headers)) {
      if (name.toLowerCase() !== 'content-type') request.setRequestHeader(name, value);
    }
    request.setRequestHeader('Content-Type', options.contentType);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress(Math.min(100, (event.loaded / event.total) * 100));
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        options.onProgress(100);
        resolve();
      } else {
        reject(new TransferError(request.status, messageOf(request)));
      }
    };
    request.onerror = () => reject(new TransferError(0, 'the upload could not reach the server'));
    request.onabort = () => reject(new DOMException('the upload was cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
