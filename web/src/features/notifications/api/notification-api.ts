/**
 * Calls and queries for notifications: the list (20 a page, the newest first; a full page means
 * more may exist), the unread count, and marking one or all read. Notifications are always stale
 * (the spec): shown again, they are asked again; the live socket refreshes them when one arrives.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { notificationKeys } from '../../../lib/queries/notification-keys';

/** The spec's page size. */
export const PAGE_SIZE = 20;

const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  read: z.boolean(),
  created_at: z.string(),
  actor: z.object({ user_id: z.string(), username: z.string() }).nullable(),
  channel: z.object({ id: z.string(), name: z.string() }).nullable(),
  document: z.object({ deeplink: z.string(), title: z.string(), source: z.string(), access_key: z.string() }).nullable(),
  comment_id: z.string().nullable(),
  source: z.object({ id: z.string(), label: z.string() }).nullable(),
  /** The feed that matched (feed_match) or whose digest this is (feed_digest), while it exists. */
  feed: z.object({ id: z.string(), label: z.string() }).nullable().optional(),
  excerpt: z.string().nullable(),
});

export type Notification = z.infer<typeof notificationSchema>;

const pageAnswer = z.object({ results: z.array(notificationSchema), page: z.number() });
export type NotificationPage = z.infer<typeof pageAnswer>;
const countAnswer = z.object({ results: z.object({ count: z.number() }) });

export const notificationQueries = {
  pages: () =>
    infiniteQueryOptions({
      queryKey: notificationKeys.pages(),
      initialPageParam: 0,
      queryFn: async ({ pageParam, signal }) =>
        pageAnswer.parse(await api.get<unknown>(`/notifications?page=${pageParam}`, { signal })),
      getNextPageParam: (last) => (last.results.length === PAGE_SIZE ? last.page + 1 : undefined),
      staleTime: 0,
    }),
  unread: () =>
    queryOptions({
      queryKey: notificationKeys.unread(),
      queryFn: async ({ signal }) =>
        countAnswer.parse(await api.get<unknown>('/notifications/unread_count', { signal })).results.count,
      staleTime: 0,
      meta: { toast: false },
    }),
};

/** Marks one notification read; answers the unread count after it. */
export const markRead = async (id: string): Promise<number> =>
  countAnswer.parse(await api.put<unknown>(`/notifications/${encodeURIComponent(id)}/read`)).results.count;

/** Marks every notification read; answers the unread count after it (0). */
export const markAllRead = async (): Promise<number> =>
  countAnswer.parse(await api.put<unknown>('/notifications/read_all')).results.count;
