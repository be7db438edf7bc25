/**
 * The browser's side of uploads: each picked file from the moment it is accepted until the user
 * dismisses it, grouped in batches (one init/complete round each), for every upload source at
 * once (the app holds one state, so uploads outlive the page they started on). A pure reducer
 * written with immer; the statuses the server reports while processing are merged in by
 * `withServerStatus`.
 */
import { produce } from 'immer';
import type { UploadStatusResult } from './api/upload-api';

/**
 * The spec's attachment statuses as shown: UPLOADING (with progress), PROCESSING, COMPLETED,
 * FAILED (processing failed) and UPLOADING_ERROR (no link, or the transfer failed).
 */
export type FileStatus = 'UPLOADING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'UPLOADING_ERROR';

export interface UploadItem {
  id: string;
  batchId: string;
  /** The upload source it goes to (`needldrive`, `ask_needl`). */
  source: string;
  name: string;
  size: number;
  mimeType: string;
  status: FileStatus;
  /** 0 to 100 while uploading. */
  progress: number;
  error: string | null;
  /** The document the file became, once COMPLETED. */
  deeplink: string | null;
}

export interface UploadBatch {
  id: string;
  /** The files the server was told about in the complete call; their statuses are polled. */
  processingIds: string[];
  /** When the complete call answered (ms since epoch); polling is timed from here. */
  completedAt: number | null;
}

export interface UploadState {
  items: UploadItem[];
  batches: UploadBatch[];
}

export const initialUploadState: UploadState = { items: [], batches: [] };

export interface NewFile {
  id: string;
  name: string;
  size: number;
  mimeType: string;
}

export type UploadAction =
  | { type: 'batch.added'; batchId: string; source: string; files: NewFile[] }
  | { type: 'file.progress'; id: string; progress: number }
  | { type: 'file.failed'; id: string; error: string }
  /** The batch could not start (no upload links): every file still uploading fails. */
  | { type: 'batch.failed'; batchId: string; error: string }
  | { type: 'batch.completed'; batchId: string; files: Array<{ id: string; status: string; error?: string | null }>; at: number }
  | { type: 'file.dismissed'; id: string }
  /** Clears the finished files of one source, or of all when none is named. */
  | { type: 'finished.cleared'; source?: string };

const TERMINAL: ReadonlySet<FileStatus> = new Set(['COMPLETED', 'FAILED', 'UPLOADING_ERROR']);

export const isFinished = (item: Pick<UploadItem, 'status'>) => TERMINAL.has(item.status);

/** Maps a status the server reported to one this view shows. */
export function toFileStatus(status: string): FileStatus {
  switch (status) {
    case 'COMPLETED':
      return 'COMPLETED';
    case 'FAILED':
    case 'PROCESSING_ERROR':
    // Removed while being processed (elsewhere): it will not become a document.
    case 'REMOVED':
      return 'FAILED';
    case 'UPLOADING_ERROR':
      return 'UPLOADING_ERROR';
    case 'UPLOADING':
      return 'UPLOADING';
    default:
      // PROCESSING, UPLOADED, PENDING: the server has the file and is working on it.
      return 'PROCESSING';
  }
}

export const uploadReducer = produce((draft: UploadState, action: UploadAction) => {
  const item = (id: string) => draft.items.find((i) => i.id === id);
  switch (action.type) {
    case 'batch.added':
      draft.batches.push({ id: action.batchId, processingIds: [], completedAt: null });
      for (const file of action.files) {
        draft.items.push({
          ...file,
          batchId: action.batchId,
          source: action.source,
          status: 'UPLOADING',
          progress: 0,
          error: null,
          deeplink: null,
        });
      }
      return;
    case 'file.progress': {
      const target = item(action.id);
      if (target?.status === 'UPLOADING') target.progress = Math.max(target.progress, Math.round(action.progress));
      return;
    }
    case 'file.failed': {
      const target = item(action.id);
      if (target) Object.assign(target, { status: 'UPLOADING_ERROR', error: action.error });
      return;
    }
    case 'batch.failed':
      for (const target of draft.items) {
        if (target.batchId === action.batchId && target.status === 'UPLOADING') {
          Object.assign(target, { status: 'UPLOADING_ERROR', error: action.error });
        }
      }
      return;
    case 'batch.completed': {
      // Only files the server took on are polled; it may refuse some at once (quota, missing bytes).
      const processing = action.files.filter((f) => toFileStatus(f.status) === 'PROCESSING').map((f) => f.id);
      const batch = draft.batches.find((b) => b.id === action.batchId);
      if (batch) Object.assign(batch, { processingIds: processing, completedAt: action.at });
      for (const file of action.files) {
        const target = item(file.id);
        if (target) Object.assign(target, { status: toFileStatus(file.status), progress: 100, error: file.error ?? null });
      }
      return;
    }
    case 'file.dismissed':
      draft.items = draft.items.filter((i) => i.id !== action.id);
      dropEmptyBatches(draft);
      return;
    case 'finished.cleared':
      draft.items = draft.items.filter((i) => !isFinished(i) || (action.source !== undefined && i.source !== action.source));
      dropEmptyBatches(draft);
      return;
  }
});

function dropEmptyBatches(draft: UploadState) {
  const live = new Set(draft.items.map((i) => i.batchId));
  draft.batches = draft.batches.filter((b) => live.has(b.id));
}

/**
 * Returns the items with what the server last reported for files it is processing. The
 * browser's own state stands for files the server has not reported on.
 */
export function withServerStatus(items: UploadItem[], results: ReadonlyMap<string, UploadStatusResult>): UploadItem[] {
  return items.map((item) => {
    const result = results.get(item.id);
    if (!result || item.status === 'UPLOADING' || item.status === 'UPLOADING_ERROR') return item;
    const status = toFileStatus(result.status);
    // A file the server still lists as UPLOADING was completed here: it is processing.
    const shown = status === 'UPLOADING' ? 'PROCESSING' : status;
    const error = result.status === 'REMOVED' ? 'the file was removed' : (result.error ?? 'processing failed');
    return { ...item, status: shown, error: shown === 'FAILED' ? error : null, deeplink: result.deeplink ?? null };
  });
}

/** Files still on their way: being sent, or being made into documents by the server. */
export interface UploadActivity {
  uploading: number;
  processing: number;
  /** Of the files being sent, how much has gone, 0 to 100 (weighed by size). */
  progress: number;
}

/** Returns what the files are doing, for a summary while uploads run. */
export function uploadActivity(items: readonly UploadItem[]): UploadActivity {
  const sending = items.filter((i) => i.status === 'UPLOADING');
  const bytes = sending.reduce((sum, i) => sum + Math.max(i.size, 1), 0);
  const sent = sending.reduce((sum, i) => sum + Math.max(i.size, 1) * i.progress, 0);
  return {
    uploading: sending.length,
    processing: items.filter((i) => i.status === 'PROCESSING').length,
    progress: bytes ? Math.round(sent / bytes) : 0,
  };
}

/** Polling for statuses starts 5 s after the complete call and waits twice as long each time. */
export const POLL_FIRST_MS = 5_000;
/** ... and stops after about two minutes. */
export const POLL_LIMIT_MS = 120_000;

/**
 * Returns how long to wait before the next status check, `elapsedMs` after the complete call,
 * or false when polling is over. Checks fall at 5, 15, 35 and 75 s, and a last one at 120 s.
 */
export function nextPollDelay(elapsedMs: number): number | false {
  if (elapsedMs >= POLL_LIMIT_MS) return false;
  let at = 0;
  let delay = POLL_FIRST_MS;
  while (at + delay <= elapsedMs) {
    at += delay;
    delay *= 2;
  }
  return Math.min(at + delay, POLL_LIMIT_MS) - elapsedMs;
}

/** Returns whether the server reported every one of `ids` COMPLETED or FAILED. */
export function allSettled(ids: readonly string[], results: readonly UploadStatusResult[] | undefined): boolean {
  if (!results) return false;
  const byId = new Map(results.map((r) => [r.id, toFileStatus(r.status)]));
  return ids.every((id) => {
    const status = byId.get(id);
    return status === 'COMPLETED' || status === 'FAILED';
  });
}
