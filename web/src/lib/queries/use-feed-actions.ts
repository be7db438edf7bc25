import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../api-client';
import { libraryKeys } from './library-keys';
import { retryFeed, sourceQueries, unfollowFeed, type RssSourceList } from './source-queries';
import { sourceKeys } from './source-keys';

/** The toast for a failed feed action: the server's words when it gave a reason, else `fallback`. */
export const failure = (fallback: string) => (error: unknown) =>
  isApiError(error) && error.status < 500 && error.message ? error.message : fallback;

/**
 * Fetches a feed again now. The answer shows it due, so the list is asked again every few
 * seconds until the try is recorded (no live event says when a fetch ends).
 */
export function useRetryFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure('The feed could not be retried. Please try again.') },
    mutationFn: retryFeed,
    onSuccess: (source) => {
      queryClient.setQueryData<RssSourceList>(sourceQueries.rss().queryKey, (list) =>
        list ? { results: list.results.map((s) => (s.source_id === source.source_id ? source : s)) } : list,
      );
    },
  });
}

/**
 * Stops following a feed (or any source, by its id); the source lists and My Data's categories
 * refetch afterwards. `fallback` is the toast when the server gives no reason.
 */
export function useUnfollowFeed(fallback = 'The feed could not be removed. Please try again.') {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure(fallback) },
    mutationFn: unfollowFeed,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sourceKeys.all() }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
      ]),
  });
}
