import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { Tag } from '../api/tag-api';
import { useDeleteTags, useRenameTag } from '../hooks/use-tag-mutations';
import { MAX_TAG_NAME_CHARS, PLEASE_CREATE_TAG, TAG_NAME_TOO_LONG } from '../messages';
import { taggedDocumentsPath } from './tag-chip';

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Please try again');

/** Returns why a new name cannot be used, or null. */
function nameProblem(name: string): string | null {
  if (!name.trim()) return PLEASE_CREATE_TAG;
  if ([...name.trim()].length > MAX_TAG_NAME_CHARS) return TAG_NAME_TOO_LONG;
  return null;
}

/**
 * One tag in the manager: its name (to its documents), Rename inline (Enter saves, Escape
 * cancels) and Delete after a confirmation. The server's refusals show by the row.
 */
export function TagRow({ tag }: { tag: Tag }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  return (
    <li className="tag-row" data-testid="tag-row" data-tag-id={tag.id}>
      {editing ? (
        <RenameForm
          tag={tag}
          onDone={() => {
            setEditing(false);
            requestAnimationFrame(() => renameButton.current?.focus());
          }}
        />
      ) : (
        <>
          <Link className="tag-row-name" to={taggedDocumentsPath(tag.id)} state={{ tagId: tag.id }}>
            {tag.name}
          </Link>
          <span className="tag-row-actions">
            <button ref={renameButton} type="button" className="button button-quiet" aria-label={`Rename ${tag.name}`} onClick={() => setEditing(true)}>
              Rename
            </button>
            <button type="button" className="button button-quiet button-danger-text" aria-label={`Delete ${tag.name}`} onClick={() => setConfirming(true)}>
              Delete
            </button>
          </span>
        </>
      )}
      {confirming && <DeleteTag tag={tag} onClose={() => setConfirming(false)} />}
    </li>
  );
}

function RenameForm({ tag, onDone }: { tag: Tag; onDone: () => void }) {
  const [name, setName] = useState(tag.name);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useRenameTag();
  const error = problem ?? (rename.isError ? errorText(rename.error) : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = nameProblem(name);
    if (invalid) return setProblem(invalid);
    if (name.trim() === tag.name) return onDone();
    rename.mutate({ tagId: tag.id, name: name.trim() }, { onSuccess: onDone });
  };
  return (
    <form className="tag-rename" onSubmit={submit}>
      <input
        className="input"
        aria-label={`New name for ${tag.name}`}
        value={name}
        autoFocus
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          setName(event.target.value);
          setProblem(null);
          rename.reset();
        }}
        onKeyDown={(event) => event.key === 'Escape' && onDone()}
      />
      <button type="submit" className="button button-primary" disabled={rename.isPending}>
        {rename.isPending ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="button button-quiet" onClick={onDone}>
        Cancel
      </button>
      {error && (
        <p className="field-error tag-row-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function DeleteTag({ tag, onClose }: { tag: Tag; onClose: () => void }) {
  const remove = useDeleteTags();
  return (
    <ConfirmDialog
      title={`Delete the tag “${tag.name}”?`}
      confirmLabel="Delete"
      pending={remove.isPending}
      onCancel={onClose}
      onConfirm={() => remove.mutate([tag.id], { onSuccess: onClose })}
    >
      <p>It comes off every document it is on. The documents themselves stay.</p>
      {remove.isError && (
        <p className="form-error" role="alert">
          {errorText(remove.error)}
        </p>
      )}
    </ConfirmDialog>
  );
}
