import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { notebookQueries } from '../api/notebook-api';
import { UNTITLED_NOTE } from '../messages';
import { NoteBodyView } from './note-body-view';
import { NoteEditor } from './note-editor';
import { SnippetSource } from './snippet-source';

export interface NotePaneProps {
  noteId: string;
  onClosed: () => void;
  /** Whether the note may be changed (the `notebooks` flag); otherwise it is shown read-only. */
  writable?: boolean;
}

/** The open note, loaded with its body; a note deleted elsewhere stays readable with a notice. */
export function NotePane({ noteId, onClosed, writable = true }: NotePaneProps) {
  const note = useQuery(notebookQueries.note(noteId));
  const gone = isApiError(note.error) && note.error.status === 404;
  if (note.data && !writable) {
    return (
      <article className="note-editor card" aria-label={`Note ${note.data.name || UNTITLED_NOTE}`} data-testid="note-editor">
        <h2 className="card-title">{note.data.name || UNTITLED_NOTE}</h2>
        <SnippetSource snippet={note.data.snippet} />
        <NoteBodyView body={note.data.body} />
      </article>
    );
  }
  if (note.data) return <NoteEditor key={noteId} note={note.data} deleted={gone} onDeleted={onClosed} />;
  if (note.isPending) return <Spinner label="Loading the note" />;
  return (
    <EmptyState title={gone ? 'This note cannot be found' : 'This note could not be loaded'}>
      {!gone && (
        <button type="button" className="button" onClick={() => void note.refetch()}>
          Try again
        </button>
      )}
    </EmptyState>
  );
}
