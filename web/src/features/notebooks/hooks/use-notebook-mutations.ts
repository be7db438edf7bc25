/**
 * Writes to the shelf and to notes. A new notebook shows in the cached list at once and is taken
 * out again if the server refuses it (the spec's optimistic creation); the server's refusal
 * (a name in use, say) is returned for the form to show inline. The live socket refreshes the
 * lists too, for this browser and the owner's others.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notebookKeys } from '../../../lib/queries/notebook-keys';
import {
  createNote,
  createNotebook,
  deleteNote,
  deleteNotebook,
  renameNotebook,
  type Note,
  type Notebook,
} from '../api/notebook-api';
import { emptyDocument } from '../note-text';

/** Marks a notebook that is only in the cache until the server answers. */
export const PENDING_ID_PREFIX = 'pending-';

/**
 * Returns whether a notebook id is a stand-in the server has not replaced yet: nothing may be
 * fetched or opened by it (the server would answer 404).
 */
export const isPendingNotebookId = (notebookId: string): boolean => notebookId.startsWith(PENDING_ID_PREFIX);

let pendingCount = 0;

const placeholder = (name: string): Notebook => {
  const now = new Date().toISOString();
  pendingCount += 1;
  return {
    // Not crypto.randomUUID: it exists only in secure contexts, and the app may be served over plain http.
    notebook_id: `${PENDING_ID_PREFIX}${pendingCount}`,
    notebook_name: name,
    notebook_type: 'user',
    default: false,
    feed_id: null,
    channel_id: null,
    notebook_created_at: now,
    notebook_updated_at: now,
    note_count: 0,
  };
};

/** Creates a notebook, showing it first in the list before the server answers. */
export function useCreateNotebook() {
  const queryClient = useQueryClient();
  const key = notebookKeys.lists();
  return useMutation({
    meta: { toast: false },
    mutationFn: createNotebook,
    onMutate: async (name: string) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Notebook[]>(key);
      const temp = placeholder(name);
      if (previous) queryClient.setQueryData<Notebook[]>(key, [temp, ...previous]);
      return { tempId: temp.notebook_id };
    },
    onSuccess: (notebook, _name, context) =>
      queryClient.setQueryData<Notebook[]>(key, (list) =>
        list?.map((n) => (n.notebook_id === context?.tempId ? notebook : n)),
      ),
    onError: (_error, _name, context) =>
      queryClient.setQueryData<Notebook[]>(key, (list) => list?.filter((n) => n.notebook_id !== context?.tempId)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Renames a notebook; the server's refusal is shown by the form. */
export function useRenameNotebook() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false },
    mutationFn: ({ notebookId, name }: { notebookId: string; name: string }) => renameNotebook(notebookId, name),
    onSuccess: (notebook) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: notebookKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: notebookKeys.notebook(notebook.notebook_id) }),
      ]),
  });
}

/** Deletes a notebook with its notes. */
export function useDeleteNotebook() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { successToast: 'Notebook deleted' },
    mutationFn: deleteNotebook,
    onSuccess: (_answer, notebookId) => {
      queryClient.setQueryData<Notebook[]>(notebookKeys.lists(), (list) => list?.filter((n) => n.notebook_id !== notebookId));
      queryClient.removeQueries({ queryKey: notebookKeys.notebook(notebookId) });
      return queryClient.invalidateQueries({ queryKey: notebookKeys.lists() });
    },
  });
}

/** Adds an empty note to a notebook and answers it. */
export function useCreateNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (notebookId: string) => createNote(notebookId, '', emptyDocument()),
    onSuccess: (note: Note) => {
      queryClient.setQueryData(notebookKeys.note(note.id), note);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: notebookKeys.notebook(note.notebook_id) }),
        queryClient.invalidateQueries({ queryKey: notebookKeys.lists() }),
      ]);
    },
  });
}

/** Deletes a note. */
export function useDeleteNote() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { successToast: 'Note deleted' },
    mutationFn: ({ noteId }: { noteId: string; notebookId: string }) => deleteNote(noteId),
    onSuccess: (_answer, { noteId, notebookId }) => {
      queryClient.removeQueries({ queryKey: notebookKeys.note(noteId) });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: notebookKeys.notebook(notebookId) }),
        queryClient.invalidateQueries({ queryKey: notebookKeys.lists() }),
      ]);
    },
  });
}
