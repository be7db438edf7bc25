import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CardActionTarget } from '../../../lib/card-actions';
import type { ToastMeta } from '../../../lib/query-client';
import { notebookKeys } from '../../../lib/queries/notebook-keys';
import { snipNote } from '../api/notebook-api';
import { isSafeHref } from '../links';
import { ADD_TO_NOTES_FAILED, NOTE_CREATED } from '../messages';
import { storeNote } from '../note-cache';
import { snippetDocument } from '../note-text';

const meta: ToastMeta = { successToast: NOTE_CREATED, errorToast: ADD_TO_NOTES_FAILED };

/** Returns the link a snippet keeps: the original's web address, else the document's preview. */
export const snippetLink = (target: Pick<CardActionTarget, 'link' | 'previewPath'>): string =>
  target.link && /^https?:\/\//i.test(target.link) && isSafeHref(target.link) ? target.link : target.previewPath;

/**
 * Adds a card's document to a notebook as a snippet note: named after the document, quoting
 * its summary or highlight, linking to the original. The spec's toasts say how it went.
 */
export function useAddToNotes() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { ...meta },
    mutationFn: ({ notebookId, target }: { notebookId: string; target: CardActionTarget }) => {
      const link = snippetLink(target);
      return snipNote(notebookId, {
        name: target.title,
        document: snippetDocument({ title: target.title, link, quote: target.excerpt }),
        source: { deeplink: target.deeplink, source: target.source, title: target.title, link },
      });
    },
    onSuccess: (note) => {
      storeNote(queryClient, note);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: notebookKeys.notebook(note.notebook_id) }),
        queryClient.invalidateQueries({ queryKey: notebookKeys.lists() }),
      ]);
    },
  });
}
