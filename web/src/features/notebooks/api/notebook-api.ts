/**
 * Calls and queries for notebooks and notes: the shelf, one notebook with its notes, one note
 * with its body, and their writes. Answers are checked with zod, so a changed server shape fails
 * loudly here rather than somewhere in a component.
 */
import { queryOptions } from '@tanstack/react-query';
import type { JSONContent } from '@tiptap/core';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { notebookKeys } from '../../../lib/queries/notebook-keys';

const notebookSchema = z.object({
  notebook_id: z.string(),
  notebook_name: z.string(),
  /** `user`, or `default` for the assistant's notebook. */
  notebook_type: z.string(),
  default: z.boolean(),
  feed_id: z.string().nullish(),
  channel_id: z.string().nullish(),
  notebook_created_at: z.string(),
  notebook_updated_at: z.string(),
  note_count: z.number().int(),
});

export type Notebook = z.infer<typeof notebookSchema>;

const snippetSchema = z.object({
  deeplink: z.string().nullish(),
  source: z.string().nullish(),
  title: z.string().nullish(),
  /** An http(s) address or a path of this app. */
  link: z.string().nullish(),
});

export type SnippetSource = z.infer<typeof snippetSchema>;

const notePreviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `note`, or `snippet` for a document taken from a card. */
  kind: z.string(),
  notebook_id: z.string(),
  notebook_name: z.string(),
  /** The body's text, cut at 1000 characters with "...". */
  preview: z.string(),
  /** Sent back with an edit; an edit based on an older one is refused (409). */
  version: z.number().int(),
  snippet: snippetSchema.nullish(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type NotePreview = z.infer<typeof notePreviewSchema>;

/** The rich-text document is Tiptap's JSON; the server only checks that it is an object. */
const noteSchema = notePreviewSchema.extend({
  body: z.custom<JSONContent>((value) => typeof value === 'object' && value !== null).nullish(),
});

export type Note = z.infer<typeof noteSchema>;

const notebookDetailSchema = notebookSchema.extend({ notes: z.array(notePreviewSchema) });

export type NotebookDetail = z.infer<typeof notebookDetailSchema>;

const shelfAnswer = z.object({ results: z.array(notebookSchema) });
const createdAnswer = z.object({ results: z.object({ notebookId: z.string(), notebook: notebookSchema }) });
const notebookAnswer = z.object({ results: notebookSchema });
const detailAnswer = z.object({ results: notebookDetailSchema });
const noteAnswer = z.object({ results: noteSchema });

export const notebookQueries = {
  /** The user's notebooks, newest first. */
  list: () =>
    queryOptions({
      queryKey: notebookKeys.lists(),
      queryFn: async ({ signal }) => shelfAnswer.parse(await api.get<unknown>('/notebook/list', { signal })).results,
    }),
  /** One notebook with its notes (newest first, without bodies). A 404 is shown by the page. */
  detail: (notebookId: string) =>
    queryOptions({
      queryKey: notebookKeys.notebook(notebookId),
      queryFn: async ({ signal }) =>
        detailAnswer.parse(await api.get<unknown>(`/notebook/${encodeURIComponent(notebookId)}`, { signal })).results,
      meta: { toast: false },
    }),
  /** One note with its body. A 404 (deleted elsewhere) is shown where the note was. */
  note: (noteId: string) =>
    queryOptions({
      queryKey: notebookKeys.note(noteId),
      queryFn: ({ signal }) => fetchNote(noteId, signal),
      meta: { toast: false },
    }),
};

export const fetchNote = async (noteId: string, signal?: AbortSignal): Promise<Note> =>
  noteAnswer.parse(await api.get<unknown>(`/note/${encodeURIComponent(noteId)}`, { signal })).results;

export const createNotebook = async (name: string): Promise<Notebook> =>
  createdAnswer.parse(await api.put<unknown>('/notebook', { body: { name } })).results.notebook;

export const renameNotebook = async (notebookId: string, name: string): Promise<Notebook> =>
  notebookAnswer.parse(await api.put<unknown>(`/notebook/${encodeURIComponent(notebookId)}`, { body: { name } })).results;

export const deleteNotebook = (notebookId: string) => api.delete<void>(`/notebook/${encodeURIComponent(notebookId)}`);

export const createNote = async (notebookId: string, name: string, body: JSONContent): Promise<Note> =>
  noteAnswer.parse(await api.put<unknown>(`/note/create/${encodeURIComponent(notebookId)}`, { body: { name, body } }))
    .results;

export interface SnipRequest {
  name: string;
  document: JSONContent;
  source: { deeplink: string; source: string; title: string; link: string | null };
}

/** Adds a snippet note (Add to Notes): a document taken from a card, with where it came from. */
export const snipNote = async (notebookId: string, snip: SnipRequest): Promise<Note> =>
  noteAnswer.parse(await api.post<unknown>(`/note/snip/${encodeURIComponent(notebookId)}`, { body: snip })).results;

export interface NoteEdit {
  /** The version the editor showed. */
  version: number;
  name: string;
  body: JSONContent;
}

/** Saves a note's name and body; a 409 means someone saved a newer version first. */
export const editNote = async (noteId: string, edit: NoteEdit): Promise<Note> =>
  noteAnswer.parse(await api.put<unknown>(`/note/${encodeURIComponent(noteId)}`, { body: edit })).results;

export const deleteNote = (noteId: string) => api.delete<void>(`/note/${encodeURIComponent(noteId)}`);
