/** Notes the server answers (a save, a reload, a snippet), written into the cached queries. */
import type { QueryClient } from '@tanstack/react-query';
import { notebookKeys } from '../../lib/queries/notebook-keys';
import type { Note, NotebookDetail } from './api/notebook-api';

/**
 * Puts a note the server answered into the cache, unless a newer copy is there already, and
 * updates its entry in its notebook's list (name, preview, version) without a refetch.
 */
export function storeNote(queryClient: QueryClient, note: Note): void {
  queryClient.setQueryData<Note>(notebookKeys.note(note.id), (cached) =>
    cached && cached.version > note.version ? cached : note,
  );
  queryClient.setQueryData<NotebookDetail>(notebookKeys.notebook(note.notebook_id), (notebook) => {
    if (!notebook) return notebook;
    const { body: _body, ...preview } = note;
    return {
      ...notebook,
      notes: notebook.notes.map((n) => (n.id === note.id && n.version <= note.version ? preview : n)),
    };
  });
}
