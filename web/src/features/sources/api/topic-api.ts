/** Calls and queries for suggested RSS feeds: the topics, and each topic's feeds with which the user follows. */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { sourceKeys } from '../../../lib/queries/source-keys';

const topicListSchema = z.object({
  results: z.array(z.object({ key: z.string(), title: z.string(), count: z.number().int().nonnegative() })),
});

export type Topic = z.infer<typeof topicListSchema>['results'][number];

const suggestedFeedSchema = z.object({
  url: z.string(),
  label: z.string(),
  /** The source following it gives (or gave). */
  source_id: z.string(),
  following: z.boolean(),
});

export type SuggestedFeed = z.infer<typeof suggestedFeedSchema>;

const topicFeedsSchema = z.object({ key: z.string(), title: z.string(), results: z.array(suggestedFeedSchema) });

export type TopicFeeds = z.infer<typeof topicFeedsSchema>;

export const topicQueries = {
  /** The topics come from the server's catalogue, which does not change while it runs. */
  list: () =>
    queryOptions({
      queryKey: sourceKeys.topics(),
      queryFn: async ({ signal }) => topicListSchema.parse(await api.get<unknown>('/rss/topics', { signal })),
      staleTime: Infinity,
    }),
  feeds: (topic: string) =>
    queryOptions({
      queryKey: sourceKeys.topic(topic),
      queryFn: async ({ signal }) =>
        topicFeedsSchema.parse(await api.get<unknown>(`/rss?topic=${encodeURIComponent(topic)}`, { signal })),
      staleTime: 15_000,
    }),
};
