import { FakeXhr } from '../../../test/fake-xhr';
import { TransferError, transferFile } from './transfer-file';
import type { UploadLink } from './upload-api';

const link: UploadLink = {
  id: 'f1',
  upload_link: '/api/storage/u1/abc/report.pdf?expires=1&sig=x',
  headers: { 'x-amz-meta-id': 'f1', 'content-type': 'ignored/here' },
  metadata_fields: { bucket: 'local', key: 'u1/abc/report.pdf' },
};

const start = (onProgress = vi.fn()) => {
  const request = new FakeXhr();
  const file = new Blob(['%PDF-1.4']);
  const done = transferFile(file, link, {
    contentType: 'application/pdf',
    onProgress,
    createRequest: () => request as unknown as XMLHttpRequest,
  });
  return { request, done, onProgress, file };
};

describe('transferFile', () => {
  it('PUTs the file to its link with the config headers and the declared type, reporting progress', async () => {
    const { request, done, onProgress, file } = start();
    expect(request.method).toBe('PUT');
    expect(request.url).toBe(link.upload_link);
    expect(request.headers).toEqual({ 'x-amz-meta-id': 'f1', 'Content-Type': 'application/pdf' });
    expect(request.body).toBe(file);
    request.progress(25, 100);
    expect(onProgress).toHaveBeenLastCalledWith(25);
    request.respond(201, '{"size":8}');
    await done;
    expect(onProgress).toHaveBeenLastCalledWith(100);
  });

  it("rejects with the storage's message and status when it refuses", async () => {
    const { request, done } = start();
    request.respond(403, JSON.stringify({ code: 'bad_signature', message: 'this upload link is not valid' }));
    await expect(done).rejects.toEqual(new TransferError(403, 'this upload link is not valid'));
  });

  it('rejects when the request cannot reach the server', async () => {
    const { request, done } = start();
    request.onerror?.();
    await expect(done).rejects.toMatchObject({ status: 0 });
  });
});
