import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { ListState } from '../../../components/ui/list-state';
import type { CardActionTarget } from '../../../lib/card-actions';
import { notebookQueries } from '../api/notebook-api';
import { isPendingNotebookId } from '../hooks/use-notebook-mutations';
import { useAddToNotes } from '../hooks/use-add-to-notes';
import { CREATE_A_NOTEBOOK } from '../messages';
import { CreateNotebookForm } from './create-notebook-form';

export interface AddToNotesDialogProps {
  target: CardActionTarget;
  onClose: () => void;
}

/** Picks the notebook a card's document goes to (or makes one), then adds it as a snippet note. */
export function AddToNotesDialog({ target, onClose }: AddToNotesDialogProps) {
  const shelf = useQuery(notebookQueries.list());
  const add = useAddToNotes();
  const [chosen, setChosen] = useState<string | null>(null);
  const legendId = useId();
  const notebooks = (shelf.data ?? []).filter((n) => !isPendingNotebookId(n.notebook_id));
  const notebookId = chosen ?? notebooks[0]?.notebook_id ?? null;

  return (
    <Modal
      title="Add to Notes"
      size="small"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!notebookId || add.isPending}
            onClick={() => notebookId && add.mutate({ notebookId, target }, { onSettled: onClose })}
          >
            {add.isPending ? 'Adding…' : 'Add'}
          </button>
        </>
      }
    >
      <div className="stack add-to-notes">
        <p className="small muted">“{target.title}” goes to the notebook you pick, as a snippet with its source.</p>
        <p id={legendId} className="field-label">
          Notebook
        </p>
        <ListState
          query={shelf}
          compact
          loadingLabel="Loading notebooks"
          errorTitle="Your notebooks could not be loaded"
          isEmpty={(list) => list.every((n) => isPendingNotebookId(n.notebook_id))}
          emptyTitle={CREATE_A_NOTEBOOK}
        >
          {() => (
            <div role="radiogroup" aria-labelledby={legendId} className="notebook-choices">
              {notebooks.map((n) => (
                <label key={n.notebook_id} className="checkbox-label">
                  <input
                    type="radio"
                    name="notebook"
                    value={n.notebook_id}
                    checked={n.notebook_id === notebookId}
                    onChange={() => setChosen(n.notebook_id)}
                  />
                  {n.notebook_name}
                </label>
              ))}
            </div>
          )}
        </ListState>
        <CreateNotebookForm label="Or a new notebook" onCreated={(n) => setChosen(n.notebook_id)} />
      </div>
    </Modal>
  );
}
