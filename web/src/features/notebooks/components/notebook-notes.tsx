import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { notebookQueries } from '../api/notebook-api';
import { useCreateNote } from '../hooks/use-notebook-mutations';
import { NoteList } from './note-list';

export interface NotebookNotesProps {
  notebookId: string;
  selectedNoteId: string | null;
  onSelectNote: (noteId: string) => void;
  writable?: boolean;
}

/** A notebook's page: its name, New note, and its notes newest first. */
export function NotebookNotes({ notebookId, selectedNoteId, onSelectNote, writable = true }: NotebookNotesProps) {
  const notebook = useQuery(notebookQueries.detail(notebookId));
  const create = useCreateNote();

  if (notebook.isPending) return <Spinner label="Loading the notebook" />;
  if (notebook.isError) {
    const gone = isApiError(notebook.error) && notebook.error.status === 404;
    return (
      <section className="notebook-notes card">
        <EmptyState title={gone ? 'This notebook cannot be found' : 'This notebook could not be loaded'}>
          {!gone && (
            <button type="button" className="button" onClick={() => void notebook.refetch()}>
              Try again
            </button>
          )}
        </EmptyState>
      </section>
    );
  }

  const { notebook_name: name, notes } = notebook.data;
  return (
    <section className="notebook-notes card stack" aria-labelledby="notebook-heading">
      <div className="notebook-notes-head">
        <h2 id="notebook-heading" className="card-title">
          {name}
        </h2>
        {writable && (
          <button
            type="button"
            className="button button-primary"
            disabled={create.isPending}
            onClick={() => create.mutate(notebookId, { onSuccess: (note) => onSelectNote(note.id) })}
          >
            {create.isPending ? 'Adding…' : 'New note'}
          </button>
        )}
      </div>
      {notes.length === 0 ? (
        <p className="muted">No notes yet. Start one with New note, or add a document from its card with Add to Notes.</p>
      ) : (
        <NoteList notes={notes} selectedId={selectedNoteId} onSelect={onSelectNote} />
      )}
    </section>
  );
}
