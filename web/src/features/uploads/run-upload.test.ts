import { ApiError } from '../../lib/api-client';
import type { UploadLink } from './api/upload-api';
import { PartialUploadError, runUpload, type PendingFile, type UploadCalls } from './run-upload';
import type { UploadAction } from './upload-state';

const pending = (id: string, name = `${id}.pdf`): PendingFile => ({
  id,
  file: new File(['%PDF'], name, { type: 'application/pdf' }),
  mimeType: 'application/pdf',
});

const link = (id: string): UploadLink => ({
  id,
  upload_link: `/api/storage/${id}`,
  headers: {},
  metadata_fields: { bucket: 'local', key: `u1/${id}` },
});

function fakeCalls(overrides: Partial<UploadCalls> = {}): UploadCalls {
  return {
    init: vi.fn(async (_source, files) => files.map((f: { id: string }) => link(f.id))),
    transfer: vi.fn(async (_file, _link, _type, onProgress) => {
      onProgress(50);
      onProgress(100);
    }),
    complete: vi.fn(async (_source, files) => ({
      files: files.map((f: { metadata: { id: string } }) => ({ id: f.metadata.id, status: 'PROCESSING' })),
      feed_id: null,
    })),
    now: () => 42,
    ...overrides,
  };
}

describe('runUpload', () => {
  it('asks for links, sends each file with progress, then reports the transfers done', async () => {
    const actions: UploadAction[] = [];
    const calls = fakeCalls();
    await runUpload('needldrive', 'b1', [pending('f1'), pending('f2')], (a) => actions.push(a), calls);

    expect(calls.init).toHaveBeenCalledWith('needldrive', [
      { id: 'f1', name: 'f1.pdf', mime_type: 'application/pdf', size: 4 },
      { id: 'f2', name: 'f2.pdf', mime_type: 'application/pdf', size: 4 },
    ]);
    expect(calls.complete).toHaveBeenCalledWith('needldrive', [
      { bucket: 'local', key: 'u1/f1', metadata: { name: 'f1.pdf', mime_type: 'application/pdf', id: 'f1' } },
      { bucket: 'local', key: 'u1/f2', metadata: { name: 'f2.pdf', mime_type: 'application/pdf', id: 'f2' } },
    ]);
    expect(actions).toContainEqual({ type: 'file.progress', id: 'f1', progress: 50 });
    expect(actions.at(-1)).toEqual({
      type: 'batch.completed',
      batchId: 'b1',
      files: [
        { id: 'f1', status: 'PROCESSING', error: null },
        { id: 'f2', status: 'PROCESSING', error: null },
      ],
      at: 42,
    });
  });

  it('fails the batch with the spec text when no links can be had, and rethrows', async () => {
    const actions: UploadAction[] = [];
    const refused = new ApiError(422, 'storage_quota_exceeded', 'Not enough storage: 1.0 GB of 1.0 GB used');
    const calls = fakeCalls({ init: vi.fn().mockRejectedValue(refused) });
    await expect(runUpload('needldrive', 'b1', [pending('f1')], (a) => actions.push(a), calls)).rejects.toBe(refused);
    expect(actions).toEqual([{ type: 'batch.failed', batchId: 'b1', error: 'Error getting upload configs' }]);
    expect(calls.complete).not.toHaveBeenCalled();
  });

  it('completes the files that arrived and then reports the ones that did not', async () => {
    const actions: UploadAction[] = [];
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = fakeCalls({
      transfer: vi.fn(async (file: File) => {
        if (file.name === 'f2.pdf') throw new Error('network down');
      }),
    });
    await expect(runUpload('needldrive', 'b1', [pending('f1'), pending('f2')], (a) => actions.push(a), calls)).rejects.toBeInstanceOf(
      PartialUploadError,
    );
    expect(actions).toContainEqual({ type: 'file.failed', id: 'f2', error: 'Error uploading files' });
    expect(vi.mocked(calls.complete).mock.calls[0][1].map((f) => f.metadata.id)).toEqual(['f1']);
  });

  it('does not call complete when no file arrived', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = fakeCalls({ transfer: vi.fn().mockRejectedValue(new Error('403')) });
    await expect(runUpload('needldrive', 'b1', [pending('f1')], () => {}, calls)).rejects.toBeInstanceOf(PartialUploadError);
    expect(calls.complete).not.toHaveBeenCalled();
  });
});
