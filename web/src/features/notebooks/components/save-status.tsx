import type { SaveStatus as Status } from '../note-save.machine';

export interface SaveStatusProps {
  status: Status;
  error: string | null;
  onRetry: () => void;
  onReload: () => void;
  onKeepMine: () => void;
}

const LABELS: Record<Status, string> = { idle: '', saving: 'Saving…', saved: 'Saved', failed: 'Not saved', conflict: 'Not saved' };

/**
 * The editor's save state: "Saving…" while edits wait or go out, "Saved" after. A failed save
 * offers a retry; a conflict (the note changed elsewhere) explains itself and lets the user
 * choose between the latest version and their own, so neither is lost without their say.
 */
export function SaveStatus({ status, error, onRetry, onReload, onKeepMine }: SaveStatusProps) {
  return (
    <>
      <p className="note-save-status small muted" role="status" data-testid="save-status" data-status={status}>
        {LABELS[status]}
        {status === 'failed' && (
          <>
            {error && <span>: {error}</span>}{' '}
            <button type="button" className="button-link" onClick={onRetry}>
              Try again
            </button>
          </>
        )}
      </p>
      {status === 'conflict' && (
        <div className="note-conflict" role="alert">
          <p>
            This note was changed somewhere else after you opened it, so your latest changes are not saved.
            {error && ` (${error})`}
          </p>
          <p className="small">Reload latest shows their version and drops your unsaved changes; Keep mine saves yours over theirs.</p>
          <div className="note-conflict-actions">
            <button type="button" className="button button-primary" onClick={onReload}>
              Reload latest
            </button>
            <button type="button" className="button" onClick={onKeepMine}>
              Keep mine
            </button>
          </div>
        </div>
      )}
    </>
  );
}
