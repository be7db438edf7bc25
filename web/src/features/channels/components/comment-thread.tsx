import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { userQueries } from '../../../lib/queries/user-queries';
import { channelQueries } from '../api/channel-api';
import { commentQueries } from '../api/comment-api';
import { isChatSource } from '../chat-sources';
import { failureText } from '../failure-text';
import { useAddComment, useMarkCommentsSeen } from '../hooks/use-comment-mutations';
import { CHAT_CARD_NOT_COMMENTABLE, MENTIONS_ONLY_UNPUBLISHED } from '../messages';
import { CommentEditor } from './comment-editor';
import { CommentItem } from './comment-item';

export interface CommentThreadProps {
  channelId: string;
  deeplink: string;
  /** The card's source: cards from chats cannot be commented upon. */
  source: string;
  /** The document's title, naming the thread. */
  title: string;
  /** The comment an address links to: highlighted and scrolled to. */
  linkedCommentId?: string | null;
}

/**
 * A document's comments in a group, the oldest first, and the box to add one. Opening it (and
 * each new comment while it is open) records the user's last sight of the thread. New comments
 * from others arrive through the live socket, which refreshes the thread.
 */
export function CommentThread({ channelId, deeplink, source, title, linkedCommentId = null }: CommentThreadProps) {
  const thread = useQuery(commentQueries.thread(channelId, deeplink));
  const channel = useQuery(channelQueries.info(channelId));
  const self = useQuery(userQueries.profile()).data?.id ?? null;
  const add = useAddComment(channelId, deeplink);
  const seen = useMarkCommentsSeen(channelId, deeplink);
  const newest = thread.data?.at(-1)?.comment_id ?? null;
  const markSeen = seen.mutate;

  useEffect(() => {
    if (thread.isSuccess) markSeen();
  }, [thread.isSuccess, newest, markSeen]);

  const published = channel.data?.publish ?? true;
  const members = channel.data && !published ? (channel.data.members ?? []) : null;
  const chat = isChatSource(source);

  const save = async (text: string, mentions: string[]) => {
    try {
      await add.mutateAsync({ text, mentions });
      return true;
    } catch {
      return false;
    }
  };

  return (
    <section className="comment-thread" aria-label={`Comments on ${title}`}>
      <ListState
        query={thread}
        compact
        loadingLabel="Loading comments"
        errorTitle="Comments could not be loaded"
        isEmpty={(comments) => comments.length === 0}
        emptyTitle="No comments yet."
      >
        {(comments) => (
          <ol className="comment-list" aria-label="Comments">
            {comments.map((comment) => (
              <CommentItem
                key={comment.comment_id}
                comment={comment}
                channelId={channelId}
                deeplink={deeplink}
                members={members}
                selfId={self}
                linked={comment.comment_id === linkedCommentId}
              />
            ))}
          </ol>
        )}
      </ListState>
      {chat ? (
        <p className="small muted" role="note">
          {CHAT_CARD_NOT_COMMENTABLE}
        </p>
      ) : (
        <>
          <CommentEditor
            label={`Comment on ${title}`}
            members={members}
            selfId={self}
            onSave={save}
            pending={add.isPending}
            error={add.error ? failureText(add.error) : null}
          />
          {channel.data && published && <p className="small muted">{MENTIONS_ONLY_UNPUBLISHED}</p>}
        </>
      )}
    </section>
  );
}
