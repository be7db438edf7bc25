import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/text-field';
import type { Notebook } from '../api/notebook-api';
import { refusalText } from '../failure-text';
import { isPendingNotebookId, useDeleteNotebook, useRenameNotebook } from '../hooks/use-notebook-mutations';
import { checkNotebookName } from '../notebook-name';

export interface NotebookItemProps {
  notebook: Notebook;
  selected: boolean;
  onSelect: () => void;
  onDeleted: () => void;
  writable?: boolean;
}

const notesCount = (n: number) => (n === 1 ? '1 note' : `${n} notes`);

/** One notebook on the shelf: open it, rename it in place, or delete it (after asking). */
export function NotebookItem({ notebook, selected, onSelect, onDeleted, writable = true }: NotebookItemProps) {
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(notebook.notebook_name);
  const [error, setError] = useState<string | undefined>();
  const rename = useRenameNotebook();
  const remove = useDeleteNotebook();
  const pending = isPendingNotebookId(notebook.notebook_id);
  const label = notebook.notebook_name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = checkNotebookName(name);
    if (!check.ok) return setError(check.error);
    if (check.name === notebook.notebook_name) return setRenaming(false);
    rename.mutate(
      { notebookId: notebook.notebook_id, name: check.name },
      {
        onSuccess: () => setRenaming(false),
        onError: (failure) => setError(refusalText(failure, 'The notebook could not be renamed. Please try again.')),
      },
    );
  };

  if (renaming) {
    return (
      <li className="notebook-item">
        <form className="notebook-rename" onSubmit={submit} noValidate>
          <TextField
            label={`Rename ${label}`}
            value={name}
            error={error}
            autoFocus
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
            }}
            onKeyDown={(event) => event.key === 'Escape' && setRenaming(false)}
          />
          <div className="notebook-item-actions">
            <button type="submit" className="button button-primary" disabled={rename.isPending}>
              Save
            </button>
            <button type="button" className="button" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </div>
        </form>
      </li>
    );
  }

  return (
    <li className={`notebook-item${selected ? ' notebook-item-selected' : ''}`} data-testid="notebook-item" aria-busy={pending || undefined}>
      <button type="button" className="notebook-item-open" aria-current={selected ? 'true' : undefined} onClick={onSelect} disabled={pending}>
        <span className="notebook-item-name">{label}</span>
        <span className="small muted">{notesCount(notebook.note_count)}</span>
      </button>
      {!pending && writable && (
        <div className="notebook-item-actions">
          <button
            type="button"
            className="button button-quiet"
            aria-label={`Rename ${label}`}
            onClick={() => {
              setName(notebook.notebook_name);
              setError(undefined);
              setRenaming(true);
            }}
          >
            Rename
          </button>
          <button type="button" className="button button-quiet" aria-label={`Delete ${label}`} onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title="Delete this notebook?"
          confirmLabel="Delete"
          pending={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(notebook.notebook_id, {
              onSuccess: () => {
                setConfirming(false);
                onDeleted();
              },
            })
          }
        >
          <p>
            “{label}” and its {notesCount(notebook.note_count)} will be deleted. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}
