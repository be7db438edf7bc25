import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { documentKeys } from '../../../lib/queries/document-keys';
import { documentQueries, setReadStatus, type DocumentCard } from '../api/document-api';

type ReadList = { results: string[] };

/**
 * Returns whether a document is read: the read list when it is loaded (it is what toggling
 * updates at once), otherwise the card's own flag.
 */
export function useIsRead() {
  const readList = useQuery(documentQueries.readStatus());
  const readSet = useMemo(() => (readList.data ? new Set(readList.data.results) : null), [readList.data]);
  return useCallback((doc: Pick<DocumentCard, 'deeplink' | 'read'>) => readSet?.has(doc.deeplink) ?? doc.read, [readSet]);
}

const withReadState = (list: ReadList | undefined, deeplink: string, read: boolean): ReadList => {
  const others = (list?.results ?? []).filter((d) => d !== deeplink);
  return { results: read ? [...others, deeplink] : others };
};

/**
 * Marks a document read or unread. The read list changes at once and goes back if the server
 * refuses; either way it is refreshed afterwards, with the cards that carry the flag.
 */
export function useToggleRead() {
  const queryClient = useQueryClient();
  const key = documentKeys.readStatus();
  return useMutation({
    mutationFn: ({ deeplink, read }: { deeplink: string; read: boolean }) =>
      setReadStatus(deeplink, read ? 'read' : 'unread'),
    onMutate: async ({ deeplink, read }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<ReadList>(key);
      queryClient.setQueryData<ReadList>(key, withReadState(previous, deeplink, read));
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      else queryClient.removeQueries({ queryKey: key, exact: true });
    },
    onSettled: (_data, _error, { deeplink }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: key }),
        queryClient.invalidateQueries({ queryKey: documentKeys.document(deeplink) }),
      ]),
  });
}
