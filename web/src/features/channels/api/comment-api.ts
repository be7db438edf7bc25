/**
 * Calls and queries for comments on documents in channels: a document's thread (oldest first),
 * its count and unseen count, marking it seen, adding, editing and deleting, and the pages of
 * comments (every channel's, or one channel's tab; newest first).
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { commentKeys } from '../../../lib/queries/channel-keys';

const mentionSchema = z.object({ mention_uuid: z.string(), mention_value: z.string() });

/** A member a comment mentions: their user id and the name that shows. */
export type Mention = z.infer<typeof mentionSchema>;

const commentSchema = z.object({
  comment_id: z.string(),
  channel_id: z.string(),
  channel_name: z.string(),
  deeplink: z.string(),
  document_title: z.string().nullable(),
  user_id: z.string(),
  username: z.string(),
  comment: z.string(),
  mentions: z.array(mentionSchema),
  created_at: z.string(),
  edited_at: z.string().nullable(),
  can_edit: z.boolean(),
  can_delete: z.boolean(),
});

export type Comment = z.infer<typeof commentSchema>;

const threadAnswer = z.object({ results: z.array(commentSchema), count: z.number() });
const commentAnswer = z.object({ results: commentSchema });
const countAnswer = z.object({ results: z.object({ count: z.number(), unseen: z.number() }) });
const seenAnswer = z.object({ results: z.object({ last_seen: z.string().nullable(), unseen: z.number() }) });
const pageAnswer = z.object({ results: z.array(commentSchema), page: z.number(), has_more: z.boolean() });

export type CommentPage = z.infer<typeof pageAnswer>;

const at = (channelId: string, deeplink: string, rest = '') =>
  `/channels/${encodeURIComponent(channelId)}/comments/${encodeURIComponent(deeplink)}${rest}`;

export const COMMENT_PAGE_SIZE = 20;

export const commentQueries = {
  thread: (channelId: string, deeplink: string) =>
    queryOptions({
      queryKey: commentKeys.thread(channelId, deeplink),
      queryFn: async ({ signal }) => threadAnswer.parse(await api.get<unknown>(at(channelId, deeplink), { signal })).results,
    }),
  /** How many comments the document has in the channel, and how many others wrote since the user looked. */
  count: (channelId: string, deeplink: string) =>
    queryOptions({
      queryKey: commentKeys.count(channelId, deeplink),
      queryFn: async ({ signal }) => countAnswer.parse(await api.get<unknown>(at(channelId, deeplink, '/count'), { signal })).results,
      meta: { toast: false },
    }),
  /** Every channel's comments (`null`) or one channel's, newest first, 20 a page. */
  page: (channelId: string | null) =>
    infiniteQueryOptions({
      queryKey: commentKeys.page(channelId),
      queryFn: async ({ pageParam, signal }) => {
        const params = new URLSearchParams({ page: String(pageParam), limit: String(COMMENT_PAGE_SIZE) });
        const path = channelId ? `/channels/${encodeURIComponent(channelId)}/comments` : '/comments';
        return pageAnswer.parse(await api.get<unknown>(`${path}?${params}`, { signal }));
      },
      initialPageParam: 0,
      getNextPageParam: (last: CommentPage) => (last.has_more ? last.page + 1 : undefined),
    }),
};

export interface CommentRequest {
  channelId: string;
  deeplink: string;
  text: string;
  /** The user ids of the members the text mentions. */
  mentions: string[];
}

export const addComment = async ({ channelId, deeplink, text, mentions }: CommentRequest): Promise<Comment> =>
  commentAnswer.parse(await api.post<unknown>(at(channelId, deeplink), { body: { comment: text, mentions } })).results;

export const editComment = async ({ channelId, deeplink, text, mentions, commentId }: CommentRequest & { commentId: string }): Promise<Comment> =>
  commentAnswer.parse(
    await api.put<unknown>(at(channelId, deeplink, `/${encodeURIComponent(commentId)}`), { body: { comment: text, mentions } }),
  ).results;

export const deleteComment = (channelId: string, deeplink: string, commentId: string) =>
  api.delete<void>(at(channelId, deeplink, `/${encodeURIComponent(commentId)}`));

/** Records that the user has seen the document's comments up to the newest. */
export const markCommentsSeen = async (channelId: string, deeplink: string) =>
  seenAnswer.parse(await api.put<unknown>(at(channelId, deeplink, '/last_seen'))).results;
