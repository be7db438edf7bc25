import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import { notebookQueries, type Notebook } from '../api/notebook-api';
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
  const shelf = useQuery(notebookQueries.list());
  const writable = useNotebookWrites();
  return (
    <ListState query={shelf} loadingLabel="Loading notebooks" errorTitle="Your notebooks could not be loaded">
      {(notebooks) => <NotebooksOpen notebooks={notebooks} writable={writable} />}
    </ListState>
  );
}

/** The shelf of loaded notebooks, the open notebook's notes and the open note, as the address names them. */
function NotebooksOpen({ notebooks, writable }: { notebooks: Notebook[]; writable: boolean }) {
  const [params, setParams] = useSearchParams();
  const noteId = params.get('note');
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
