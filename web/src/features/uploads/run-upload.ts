/**
 * One batch's round trip: ask for upload links, send every file to its link (reporting
 * progress), then tell the server which transfers ended. Each step is reported to the
 * reducer; a failure is also thrown, so the mutation running this shows its toast.
 */
import type { CompleteResult, FileDeclaration, TransferredFile, UploadLink } from './api/upload-api';
import { INIT_FAILED, TRANSFER_FAILED } from './messages';
import type { UploadAction } from './upload-state';

/** Returns a random id for a file or batch; works on plain-HTTP hosts, where randomUUID does not exist. */
export function newFileId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface PendingFile {
  id: string;
  file: File;
  mimeType: string;
}

/** The calls a batch needs; the hook passes the real ones, tests fakes. */
export interface UploadCalls {
  init: (source: string, files: FileDeclaration[]) => Promise<UploadLink[]>;
  transfer: (file: File, link: UploadLink, contentType: string, onProgress: (percent: number) => void) => Promise<void>;
  complete: (source: string, files: TransferredFile[]) => Promise<CompleteResult>;
  now: () => number;
}

/** Thrown when some files of a batch did not reach storage (the others went on). */
export class PartialUploadError extends Error {
  constructor(readonly failed: number) {
    super(`${failed} file(s) could not be uploaded`);
    this.name = 'PartialUploadError';
  }
}

/** Returns each file's link: by id, or in order when the server gave none that match. */
function linkFor(links: UploadLink[], pending: PendingFile, index: number): UploadLink | undefined {
  return links.find((l) => l.id === pending.id) ?? links[index];
}

export async function runUpload(
  source: string,
  batchId: string,
  files: PendingFile[],
  dispatch: (action: UploadAction) => void,
  calls: UploadCalls,
): Promise<CompleteResult> {
  let links: UploadLink[];
  try {
    links = await calls.init(
      source,
      files.map(({ id, file, mimeType }) => ({ id, name: file.name, mime_type: mimeType, size: file.size })),
    );
  } catch (error) {
    dispatch({ type: 'batch.failed', batchId, error: INIT_FAILED });
    throw error;
  }

  const outcomes = await Promise.all(
    files.map(async (pending, index) => {
      const link = linkFor(links, pending, index);
      try {
        if (!link) throw new Error(`no upload link for ${pending.file.name}`);
        await calls.transfer(pending.file, link, pending.mimeType, (progress) =>
          dispatch({ type: 'file.progress', id: pending.id, progress }),
        );
        return { pending, link };
      } catch (error) {
        console.error('upload transfer failed', pending.file.name, error);
        dispatch({ type: 'file.failed', id: pending.id, error: TRANSFER_FAILED });
        return null;
      }
    }),
  );
  const sent = outcomes.filter((o): o is { pending: PendingFile; link: UploadLink } => o !== null);
  const failed = files.length - sent.length;
  if (sent.length === 0) throw new PartialUploadError(failed);

  let result: CompleteResult;
  try {
    result = await calls.complete(
      source,
      sent.map(({ pending, link }) => ({
        bucket: link.metadata_fields.bucket,
        key: link.metadata_fields.key,
        metadata: { name: pending.file.name, mime_type: pending.mimeType, id: pending.id },
      })),
    );
  } catch (error) {
    sent.forEach(({ pending }) => dispatch({ type: 'file.failed', id: pending.id, error: TRANSFER_FAILED }));
    throw error;
  }
  const reported = new Map(result.files.map((f) => [f.id, f]));
  dispatch({
    type: 'batch.completed',
    batchId,
    files: sent.map(({ pending }) => ({
      id: pending.id,
      status: reported.get(pending.id)?.status ?? 'PROCESSING',
      error: reported.get(pending.id)?.error ?? null,
    })),
    at: calls.now(),
  });
  if (failed > 0) throw new PartialUploadError(failed);
  return result;
}
