/** Calls and queries for followed websites: follow by address, the followed list, unfollow. */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { sourceKeys } from '../../../lib/queries/source-keys';

const followedSchema = z.object({
  source_id: z.string(),
  label: z.string().nullish(),
  url: z.string().nullish(),
  /** The feed the server found on the site, when it says. */
  feed_url: z.string().nullish(),
});

export type FollowedWebsite = z.infer<typeof followedSchema>;

const websiteSchema = z.object({
  source_id: z.string(),
  label: z.string(),
  url: z.string(),
  feed_url: z.string().nullish(),
  priority: z.string().nullish(),
  followed_at: z.string().nullish(),
  last_fetched_at: z.string().nullish(),
  /** Why the last fetch failed; null when it worked. */
  last_error: z.string().nullish(),
});

export type Website = z.infer<typeof websiteSchema>;

const websiteList = z.object({ results: z.array(websiteSchema) });

export const websiteQueries = {
  followed: () =>
    queryOptions({
      queryKey: sourceKeys.websites(),
      queryFn: async ({ signal }) => websiteList.parse(await api.get<unknown>('/connect/website', { signal })),
      staleTime: 15_000,
    }),
};

export const followWebsite = async (url: string): Promise<FollowedWebsite> =>
  followedSchema.parse(await api.post<unknown>('/connect/website', { body: { url } }));

export const unfollowWebsite = (sourceId: string) =>
  api.post<unknown>('/connect/website?delink=true', { body: { source_id: sourceId } });
