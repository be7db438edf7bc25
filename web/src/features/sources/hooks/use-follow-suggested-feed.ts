import { useMutation, useQueryClient } from '@tanstack/react-query';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { addRssFeed, unfollowSource } from '../api/source-api';
import type { SuggestedFeed, TopicFeeds } from '../api/topic-api';
import { followFailureMessage } from './use-unfollow-source';

export interface FollowChange {
  feed: Pick<SuggestedFeed, 'url' | 'label' | 'source_id'>;
  /** true to follow, false to unfollow. */
  follow: boolean;
}

/** Returns the topic's feeds with one feed's following state set. */
export const withFollowing = (topic: TopicFeeds | undefined, sourceId: string, following: boolean) =>
  topic && { ...topic, results: topic.results.map((f) => (f.source_id === sourceId ? { ...f, following } : f)) };

/**
 * Follows (`POST /connect/rss` with the feed's address and label) or unfollows a suggested
 * feed. The topic's list shows the change at once; if the server refuses, that feed goes back
 * and a toast gives the server's reason or the spec's "Something went wrong. Please try again".
 * Afterwards the source lists, My Data's categories and the document lists refetch.
 */
export function useFollowSuggestedFeed(topic: string) {
  const queryClient = useQueryClient();
  const key = sourceKeys.topic(topic);
  const show = (sourceId: string, following: boolean) =>
    queryClient.setQueryData<TopicFeeds>(key, (data) => withFollowing(data, sourceId, following));
  return useMutation({
    meta: { errorToast: followFailureMessage },
    mutationFn: ({ feed, follow }: FollowChange): Promise<unknown> =>
      follow ? addRssFeed({ url: feed.url, label: feed.label }) : unfollowSource(feed.source_id),
    onMutate: async ({ feed, follow }) => {
      await queryClient.cancelQueries({ queryKey: key });
      show(feed.source_id, follow);
    },
    // Only this feed goes back: another follow may be on its way in the same list.
    onError: (_error, { feed, follow }) => show(feed.source_id, !follow),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sourceKeys.all() }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
        queryClient.invalidateQueries({ queryKey: documentKeys.lists() }),
      ]),
  });
}
