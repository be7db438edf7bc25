import type { UploadStatusResult } from './api/upload-api';
import {
  allSettled,
  uploadActivity,
  initialUploadState,
  nextPollDelay,
  uploadReducer,
  withServerStatus,
  type UploadAction,
  type UploadState,
} from './upload-state';

const run = (...actions: UploadAction[]): UploadState => actions.reduce(uploadReducer, initialUploadState);

const added: UploadAction = {
  type: 'batch.added',
  batchId: 'b1',
  source: 'needldrive',
  files: [
    { id: 'f1', name: 'a.pdf', size: 10, mimeType: 'application/pdf' },
    { id: 'f2', name: 'b.pdf', size: 20, mimeType: 'application/pdf' },
  ],
};

const status = (id: string, s: string, extra: Partial<UploadStatusResult> = {}): UploadStatusResult => ({
  id,
  status: s,
  ...extra,
});

describe('uploadReducer', () => {
  it('starts every accepted file uploading at 0%', () => {
    const state = run(added);
    expect(state.items.map((i) => [i.id, i.status, i.progress])).toEqual([
      ['f1', 'UPLOADING', 0],
      ['f2', 'UPLOADING', 0],
    ]);
    expect(state.batches).toEqual([{ id: 'b1', processingIds: [], completedAt: null }]);
  });

  it('moves progress forward only, in whole percents', () => {
    const state = run(added, { type: 'file.progress', id: 'f1', progress: 42.6 }, { type: 'file.progress', id: 'f1', progress: 10 });
    expect(state.items[0].progress).toBe(43);
  });

  it('fails every file still uploading when the batch cannot start', () => {
    const state = run(added, { type: 'file.failed', id: 'f2', error: 'Error uploading files' }, {
      type: 'batch.failed',
      batchId: 'b1',
      error: 'Error getting upload configs',
    });
    expect(state.items.map((i) => [i.status, i.error])).toEqual([
      ['UPLOADING_ERROR', 'Error getting upload configs'],
      ['UPLOADING_ERROR', 'Error uploading files'],
    ]);
  });

  it('polls only the files the server took on when the batch completes', () => {
    const state = run(added, {
      type: 'batch.completed',
      batchId: 'b1',
      files: [
        { id: 'f1', status: 'PROCESSING' },
        { id: 'f2', status: 'FAILED', error: 'Not enough storage: 1.0 GB of 1.0 GB used' },
      ],
      at: 1000,
    });
    expect(state.batches[0]).toEqual({ id: 'b1', processingIds: ['f1'], completedAt: 1000 });
    expect(state.items.map((i) => [i.status, i.error])).toEqual([
      ['PROCESSING', null],
      ['FAILED', 'Not enough storage: 1.0 GB of 1.0 GB used'],
    ]);
  });

  it('drops dismissed and cleared files, and batches left empty', () => {
    const done = run(added, { type: 'batch.completed', batchId: 'b1', files: [{ id: 'f1', status: 'FAILED' }], at: 1 });
    const dismissed = uploadReducer(done, { type: 'file.dismissed', id: 'f1' });
    expect(dismissed.items.map((i) => i.id)).toEqual(['f2']);
    const cleared = uploadReducer(
      uploadReducer(dismissed, { type: 'file.failed', id: 'f2', error: 'x' }),
      { type: 'finished.cleared' },
    );
    expect(cleared).toEqual({ items: [], batches: [] });
  });
});

describe('clearing finished files', () => {
  it("clears only the named source's finished files", () => {
    const other: UploadAction = {
      type: 'batch.added',
      batchId: 'b2',
      source: 'ask_needl',
      files: [{ id: 'f3', name: 'c.pdf', size: 5, mimeType: 'application/pdf' }],
    };
    const failed = run(
      added,
      other,
      { type: 'file.failed', id: 'f1', error: 'x' },
      { type: 'file.failed', id: 'f3', error: 'x' },
    );
    const cleared = uploadReducer(failed, { type: 'finished.cleared', source: 'needldrive' });
    expect(cleared.items.map((i) => [i.id, i.source])).toEqual([
      ['f2', 'needldrive'],
      ['f3', 'ask_needl'],
    ]);
    expect(uploadReducer(failed, { type: 'finished.cleared' }).items.map((i) => i.id)).toEqual(['f2']);
  });
});

describe('uploadActivity', () => {
  it('counts the files being sent and processed, with progress weighed by size', () => {
    const state = run(added, { type: 'file.progress', id: 'f1', progress: 100 });
    // f1 (10 bytes) is all sent, f2 (20 bytes) not yet: a third of the bytes.
    expect(uploadActivity(state.items)).toEqual({ uploading: 2, processing: 0, progress: 33 });
    const completed = uploadReducer(state, {
      type: 'batch.completed',
      batchId: 'b1',
      files: [
        { id: 'f1', status: 'PROCESSING' },
        { id: 'f2', status: 'FAILED' },
      ],
      at: 1,
    });
    expect(uploadActivity(completed.items)).toEqual({ uploading: 0, processing: 1, progress: 0 });
    expect(uploadActivity([])).toEqual({ uploading: 0, processing: 0, progress: 0 });
  });
});

describe('withServerStatus', () => {
  const processing = run(added, {
    type: 'batch.completed',
    batchId: 'b1',
    files: [
      { id: 'f1', status: 'PROCESSING' },
      { id: 'f2', status: 'PROCESSING' },
    ],
    at: 0,
  }).items;

  it('shows what the server reported: completed with its document, or failed with why', () => {
    const merged = withServerStatus(
      processing,
      new Map([
        ['f1', status('f1', 'COMPLETED', { deeplink: 'needldrive/u1:a' })],
        ['f2', status('f2', 'FAILED', { error: 'the file could not be read' })],
      ]),
    );
    expect(merged.map((i) => [i.status, i.error, i.deeplink])).toEqual([
      ['COMPLETED', null, 'needldrive/u1:a'],
      ['FAILED', 'the file could not be read', null],
    ]);
  });

  it('keeps the browser state for files the server has not reported on', () => {
    expect(withServerStatus(processing, new Map())).toEqual(processing);
  });
});

describe('nextPollDelay', () => {
  it('checks at 5, 15, 35 and 75 s, then once more at 120 s, then stops', () => {
    expect(nextPollDelay(0)).toBe(5_000);
    expect(nextPollDelay(5_010)).toBe(9_990);
    expect(nextPollDelay(15_000)).toBe(20_000);
    expect(nextPollDelay(35_000)).toBe(40_000);
    expect(nextPollDelay(75_000)).toBe(45_000);
    expect(nextPollDelay(120_000)).toBe(false);
    expect(nextPollDelay(500_000)).toBe(false);
  });
});

describe('allSettled', () => {
  it('holds once every file is COMPLETED or FAILED', () => {
    expect(allSettled(['f1', 'f2'], undefined)).toBe(false);
    expect(allSettled(['f1', 'f2'], [status('f1', 'COMPLETED'), status('f2', 'PROCESSING')])).toBe(false);
    expect(allSettled(['f1', 'f2'], [status('f1', 'COMPLETED')])).toBe(false);
    expect(allSettled(['f1', 'f2'], [status('f1', 'COMPLETED'), status('f2', 'FAILED')])).toBe(true);
    expect(allSettled(['f1'], [status('f1', 'REMOVED')])).toBe(true);
  });
});
