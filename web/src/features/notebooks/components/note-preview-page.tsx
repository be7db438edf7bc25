import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { formatRelative } from '../../../lib/format';
import { notebookQueries } from '../api/notebook-api';
import { UNTITLED_NOTE } from '../messages';
import { NoteBodyView } from './note-body-view';
import { SnippetSource } from './snippet-source';

/** /preview/needl_notebooks/{id}: one note, read-only, with its notebook and a way to edit it. */
export function NotePreviewPage() {
  const { noteId = '' } = useParams();
  const note = useQuery(notebookQueries.note(noteId));

  if (note.isPending) return <Spinner label="Loading the note" />;
  if (note.isError) {
    const gone = isApiError(note.error) && note.error.status === 404;
    return (
      <EmptyState title={gone ? 'This note cannot be found' : 'This note could not be loaded'}>
        <Link to="/notebooks">Go to your notebooks</Link>
      </EmptyState>
    );
  }

  const { id, name, notebook_id: notebookId, notebook_name: notebookName, updated_at: updatedAt, snippet, body } = note.data;
  const inNotebook = `/notebooks?${new URLSearchParams({ notebook: notebookId })}`;
  return (
    <article className="note-preview card stack page-narrow" aria-labelledby="note-preview-title" data-testid="note-preview">
      <header className="stack-sm">
        <h2 id="note-preview-title" className="card-title">
          {name || UNTITLED_NOTE}
        </h2>
        <p className="small muted">
          In <Link to={inNotebook}>{notebookName}</Link> · changed {formatRelative(updatedAt)}
        </p>
        <SnippetSource snippet={snippet} />
      </header>
      <NoteBodyView body={body} />
      <p>
        <Link className="button" to={`/notebooks?${new URLSearchParams({ notebook: notebookId, note: id })}`}>
          Edit in notebook
        </Link>
      </p>
    </article>
  );
}
