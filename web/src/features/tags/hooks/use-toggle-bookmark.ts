import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { tagKeys } from '../../../lib/queries/tag-keys';
import type { ToastMeta } from '../../../lib/query-client';
import { setBookmark, type DocumentTagIndex } from '../api/tag-api';
import { BOOKMARK_FAILED } from '../messages';
import { withBookmark, withoutDocument, type CachedDocumentPages } from '../tag-cache';

const meta: ToastMeta = { errorToast: BOOKMARK_FAILED };

/**
 * Bookmarks a document or takes the bookmark off (`mutate(on)`). The card shows the change at
 * once, and an unbookmarked document leaves the bookmarks list at once; if the server refuses,
 * both go back to what they were and a toast says so. When the last of several quick toggles
 * settles, the document's tags and the bookmarks are fetched again.
 */
export function useToggleBookmark(deeplink: string) {
  const queryClient = useQueryClient();
  const mutationKey = ['bookmark', deeplink];
  return useMutation({
    mutationKey,
    meta: { ...meta },
    mutationFn: (on: boolean) => setBookmark(deeplink, on),
    onMutate: async (on) => {
      await Promise.all([
        queryClient.cancelQueries({ queryKey: tagKeys.document(deeplink) }),
        queryClient.cancelQueries({ queryKey: tagKeys.bookmarks() }),
      ]);
      const snapshot: Array<[QueryKey, unknown]> = [
        ...queryClient.getQueriesData({ queryKey: tagKeys.document(deeplink) }),
        ...(on ? [] : queryClient.getQueriesData({ queryKey: tagKeys.bookmarks() })),
      ];
      queryClient.setQueriesData<DocumentTagIndex>({ queryKey: tagKeys.document(deeplink) }, (index) => withBookmark(index, on));
      if (!on) {
        queryClient.setQueriesData<CachedDocumentPages>({ queryKey: tagKeys.bookmarks() }, (list) => withoutDocument(list, deeplink));
      }
      return { snapshot };
    },
    onError: (_error, _on, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
    },
    onSettled: async () => {
      // Only the last toggle in flight refetches, so an earlier answer cannot undo a later click.
      if (queryClient.isMutating({ mutationKey }) > 1) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tagKeys.document(deeplink) }),
        queryClient.invalidateQueries({ queryKey: tagKeys.bookmarks() }),
      ]);
    },
  });
}
