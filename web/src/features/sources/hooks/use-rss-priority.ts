import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ToastMeta } from '../../../lib/query-client';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { updateRssPriorities, updateRssPriority, type Priority, type RssSourceList } from '../api/source-api';
import { PRIORITY_FAILED, PRIORITY_UPDATED } from '../messages';

export interface PriorityChange {
  sourceIds: string[];
  priority: Priority;
}

/** Applies a priority to some sources in the cached list; returns the list as it was. */
async function applyOptimistically(queryClient: QueryClient, { sourceIds, priority }: PriorityChange) {
  const key = sourceKeys.rss();
  await queryClient.cancelQueries({ queryKey: key });
  const previous = queryClient.getQueryData<RssSourceList>(key);
  if (previous) {
    const ids = new Set(sourceIds);
    queryClient.setQueryData<RssSourceList>(key, {
      results: previous.results.map((s) => (ids.has(s.source_id) ? { ...s, priority } : s)),
    });
  }
  return { previous };
}

const meta: ToastMeta = { successToast: PRIORITY_UPDATED, errorToast: PRIORITY_FAILED };

/**
 * Changes the priority of one or several RSS sources: the list shows it at once and goes back
 * to what it was if the server refuses (with the spec's failure toast). One source uses the
 * single call, several the bulk one.
 */
export function useRssPriority() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { ...meta },
    mutationFn: async ({ sourceIds, priority }: PriorityChange): Promise<unknown> =>
      sourceIds.length === 1
        ? updateRssPriority(sourceIds[0], priority)
        : updateRssPriorities(sourceIds, priority),
    onMutate: (change) => applyOptimistically(queryClient, change),
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(sourceKeys.rss(), context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sourceKeys.rss() }),
  });
}
