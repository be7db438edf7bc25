/** The writes to comments: add, edit, delete, and marking a thread seen; each keeps the caches in step. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentKeys } from '../../../lib/queries/channel-keys';
import type { ToastMeta } from '../../../lib/query-client';
import { addComment, deleteComment, editComment, markCommentsSeen, type Comment, type CommentRequest } from '../api/comment-api';

/** Puts a comment the server answered into its thread (replacing an older copy) and refreshes the counts. */
function useCommentAnswer(channelId: string, deeplink: string) {
  const queryClient = useQueryClient();
  return (comment: Comment) => {
    queryClient.setQueryData<Comment[]>(commentKeys.thread(channelId, deeplink), (thread = []) =>
      thread.some((c) => c.comment_id === comment.comment_id)
        ? thread.map((c) => (c.comment_id === comment.comment_id ? comment : c))
        : [...thread, comment],
    );
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: commentKeys.count(channelId, deeplink) }),
      queryClient.invalidateQueries({ queryKey: commentKeys.pages() }),
    ]);
  };
}

/** Adds a comment; the editor shows a refusal (the server's words) itself and keeps the draft. */
export function useAddComment(channelId: string, deeplink: string) {
  const onSuccess = useCommentAnswer(channelId, deeplink);
  return useMutation({
    meta: { toast: false } satisfies ToastMeta,
    mutationFn: ({ text, mentions }: Pick<CommentRequest, 'text' | 'mentions'>) => addComment({ channelId, deeplink, text, mentions }),
    onSuccess,
  });
}

export function useEditComment(channelId: string, deeplink: string) {
  const onSuccess = useCommentAnswer(channelId, deeplink);
  return useMutation({
    meta: { toast: false } satisfies ToastMeta,
    mutationFn: ({ commentId, text, mentions }: { commentId: string } & Pick<CommentRequest, 'text' | 'mentions'>) =>
      editComment({ channelId, deeplink, commentId, text, mentions }),
    onSuccess,
  });
}

export function useDeleteComment(channelId: string, deeplink: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { successToast: 'Comment deleted' } satisfies ToastMeta,
    mutationFn: (commentId: string) => deleteComment(channelId, deeplink, commentId),
    onSuccess: (_answer, commentId) => {
      queryClient.setQueryData<Comment[]>(commentKeys.thread(channelId, deeplink), (thread) =>
        thread?.filter((c) => c.comment_id !== commentId),
      );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: commentKeys.document(channelId, deeplink) }),
        queryClient.invalidateQueries({ queryKey: commentKeys.pages() }),
      ]);
    },
  });
}

/** Records that the user saw a thread up to its newest comment; the card's unseen count goes. Quiet. */
export function useMarkCommentsSeen(channelId: string, deeplink: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false } satisfies ToastMeta,
    mutationFn: () => markCommentsSeen(channelId, deeplink),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: commentKeys.count(channelId, deeplink) }),
  });
}
