import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { notebookQueries } from '../api/notebook-api';
import { isPendingNotebookId } from '../hooks/use-notebook-mutations';
import { useNotebookWrites } from '../hooks/use-notebook-writes';
import { NotebookNotes } from './notebook-notes';
import { NotebookShelf } from './notebook-shelf';
import { NotePane } from './note-pane';

/**
 * /notebooks: the shelf, the open notebook's notes and the open note's editor. Which notebook
 * and note are open is in the address (`?notebook=…&note=…`), so a reload or a shared tab
 * opens the same; without one, the newest notebook is shown (never one still being created).
 */
export function NotebooksPage() {
  const [params, setParams] = useSearchParams();
  const shelf = useQuery(notebookQueries.list());
  const noteId = params.get('note');
  const writable = useNotebookWrites();

  if (shelf.isPending) return <Spinner label="Loading notebooks" />;
  if (shelf.isError) {
    return (
      <EmptyState title="Your notebooks could not be loaded">
        <button type="button" className="button" onClick={() => void shelf.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }

  const notebooks = shelf.data;
  // The newest notebook the server has: one being created is only a stand-in until it answers.
  const chosen = params.get('notebook');
  const notebookId =
    (chosen && !isPendingNotebookId(chosen) ? chosen : null) ??
    notebooks.find((n) => !isPendingNotebookId(n.notebook_id))?.notebook_id ??
    null;
  const open = (next: { notebook?: string | null; note?: string | null }) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      for (const [key, value] of Object.entries(next)) {
        if (value) updated.set(key, value);
        else updated.delete(key);
      }
      return updated;
    });

  return (
    <div className="notebooks-page">
      {!writable && (
        <p className="notebooks-read-only" role="note">
          Notebooks are turned off for you: your notes can be read but not changed.
        </p>
      )}
      <NotebookShelf
        writable={writable}
        notebooks={notebooks}
        selectedId={notebookId}
        onSelect={(id) => open({ notebook: id, note: null })}
        onDeleted={(id) => id === notebookId && open({ notebook: null, note: null })}
      />
      {notebookId && (
        <NotebookNotes
          key={notebookId}
          writable={writable}
          notebookId={notebookId}
          selectedNoteId={noteId}
          onSelectNote={(id) => open({ notebook: notebookId, note: id })}
        />
      )}
      {notebookId && noteId && (
        <div className="notebook-editor-pane">
          <NotePane noteId={noteId} writable={writable} onClosed={() => open({ note: null })} />
        </div>
      )}
    </div>
  );
}
