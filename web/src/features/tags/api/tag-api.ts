/**
 * Calls and queries for tags and bookmarks: the user's tags (create, rename, delete), one
 * document's tags and bookmark, tagging a document, and the lists of bookmarked or tagged
 * documents. Answers are checked with zod, so a server that drifts from the contract fails here
 * rather than in a component.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { isApiError } from '../../../lib/api-client';
import { shouldRetry } from '../../../lib/query-client';
import { tagKeys } from '../../../lib/queries/tag-keys';

const tagSchema = z.object({ id: z.string(), name: z.string() });

/** One of the user's tags (or a channel's shared tag). */
export type Tag = z.infer<typeof tagSchema>;

const indexSchema = z.object({
  /** The user's own tags on the document, in the order they were put on. */
  user_tags: z.array(tagSchema),
  /** The channel's shared tags (empty outside a channel). */
  shared_tags: z.array(tagSchema),
  bookmarked: z.boolean(),
});

/** What is on one document: the user's tags, the channel's shared tags, the bookmark. */
export type DocumentTagIndex = z.infer<typeof indexSchema>;

const tagAnswer = z.object({ results: tagSchema });
const tagListAnswer = z.object({ results: z.array(tagSchema) });
const indexAnswer = z.object({ results: indexSchema });
const bookmarkAnswer = z.object({ results: z.object({ deeplink: z.string(), bookmarked: z.boolean() }) });

/** How long tags stay fresh (the spec: 1 minute); the live socket refreshes them sooner. */
export const TAGS_STALE_MS = 60_000;

const indexPath = (deeplink: string, channelId: string | null) => {
  const params = new URLSearchParams({ deep_link: deeplink });
  if (channelId) params.set('channel_id', channelId);
  return `/tag?${params}`;
};

/** A document the user cannot read (a shared link's) has no tags for them: asking again cannot help. */
const retryIndex = (failureCount: number, error: unknown) =>
  !(isApiError(error) && error.status === 404) && shouldRetry(failureCount, error);

export const tagQueries = {
  /** The user's tags, by name (never the bookmark). */
  userTags: () =>
    queryOptions({
      queryKey: tagKeys.userTags(),
      queryFn: async ({ signal }) => tagListAnswer.parse(await api.get<unknown>('/tag/user-tags', { signal })).results,
      staleTime: TAGS_STALE_MS,
    }),
  /**
   * One document's tags and bookmark. Cards show nothing when it fails (a shared document is not
   * the user's to tag), so it raises no toast.
   */
  index: (deeplink: string, channelId: string | null = null) =>
    queryOptions({
      queryKey: tagKeys.index(deeplink, channelId),
      queryFn: async ({ signal }) =>
        indexAnswer.parse(await api.get<unknown>(indexPath(deeplink, channelId), { signal })).results,
      staleTime: TAGS_STALE_MS,
      retry: retryIndex,
      meta: { toast: false },
    }),
};

/**
 * The document lists this feature names, for the documents feature's list: a key and the call
 * (which pages with `page` and `limit`, as `/documents` does).
 */
export const tagListings = {
  /** `/needlbox/bookmarks/all`: the user's bookmarks, most recently bookmarked first. */
  bookmarks: () => ({ queryKey: tagKeys.bookmarks(), path: '/bookmarks' }),
  /** `/needlbox/tags/all`: documents under one tag, or (`null`) under any of the user's tags. */
  tagged: (tagId: string | null) => ({
    queryKey: tagKeys.tagged(tagId),
    path: tagId ? `/tag/documents?${new URLSearchParams({ tag_id: tagId })}` : '/tag/documents',
  }),
};

/** Creates a tag and answers it, so a tag made in the picker can be selected at once. */
export const createTag = async (name: string): Promise<Tag> =>
  tagAnswer.parse(await api.post<unknown>('/tag', { body: { tag: name } })).results;

export const renameTag = async (tagId: string, name: string): Promise<Tag> =>
  tagAnswer.parse(await api.put<unknown>(`/tag/${encodeURIComponent(tagId)}`, { body: { name } })).results;

/** Deletes tags (all or none); each comes off every document it was on. */
export const deleteTags = (tagIds: string[]) => api.post<void>('/tag/delete', { body: { tag_ids: tagIds } });

export interface TagDocumentRequest {
  deeplink: string;
  /** The tag ids the document should carry. */
  tags: string[];
  /**
   * The ids shown when the user began: only the user's own additions and removals are applied,
   * so someone tagging the same document meanwhile keeps their changes.
   */
  base: string[];
  /** Sets the channel's shared tags rather than the user's own. */
  channelId?: string | null;
  feedId?: string | null;
}

/** Sets a document's tags; answers its index after the change. */
export const tagDocument = async ({ deeplink, tags, base, channelId, feedId }: TagDocumentRequest): Promise<DocumentTagIndex> =>
  indexAnswer.parse(
    await api.post<unknown>(`/tag/${encodeURIComponent(deeplink)}`, {
      body: { tags, base, channel_id: channelId ?? null, feed_id: feedId ?? null },
    }),
  ).results;

/** Bookmarks a document (`on`) or takes its bookmark off; both are idempotent. */
export const setBookmark = async (deeplink: string, on: boolean): Promise<boolean> => {
  const path = `/bookmarks/${encodeURIComponent(deeplink)}`;
  const answer = on ? await api.put<unknown>(path) : await api.delete<unknown>(path);
  return bookmarkAnswer.parse(answer).results.bookmarked;
};
