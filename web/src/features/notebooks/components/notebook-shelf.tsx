import type { Notebook } from '../api/notebook-api';
import { CREATE_A_NOTEBOOK } from '../messages';
import { CreateNotebookForm } from './create-notebook-form';
import { NotebookItem } from './notebook-item';

export interface NotebookShelfProps {
  notebooks: Notebook[];
  selectedId: string | null;
  onSelect: (notebookId: string) => void;
  onDeleted: (notebookId: string) => void;
  /** Whether notebooks may be made, renamed and deleted (the `notebooks` flag). */
  writable?: boolean;
}

/** The user's notebooks, newest first, under the form that makes a new one. */
export function NotebookShelf({ notebooks, selectedId, onSelect, onDeleted, writable = true }: NotebookShelfProps) {
  return (
    <aside className="notebook-shelf card stack" aria-labelledby="notebooks-heading">
      <h2 id="notebooks-heading" className="card-title">
        Notebooks
      </h2>
      {writable && <CreateNotebookForm onCreated={(notebook) => onSelect(notebook.notebook_id)} />}
      {notebooks.length === 0 ? (
        <p className="muted" data-testid="notebooks-empty">
          {CREATE_A_NOTEBOOK}
        </p>
      ) : (
        <ul className="notebook-list" aria-label="Your notebooks">
          {notebooks.map((notebook) => (
            <NotebookItem
              key={notebook.notebook_id}
              notebook={notebook}
              selected={notebook.notebook_id === selectedId}
              writable={writable}
              onSelect={() => onSelect(notebook.notebook_id)}
              onDeleted={() => onDeleted(notebook.notebook_id)}
            />
          ))}
        </ul>
      )}
    </aside>
  );
}
