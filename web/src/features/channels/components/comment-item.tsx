import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatRelative } from '../../../lib/format';
import { matches, REDUCED_MOTION_QUERY } from '../../../lib/media';
import type { Comment } from '../api/comment-api';
import { useDeleteComment, useEditComment } from '../hooks/use-comment-mutations';
import type { Mentionable } from '../mentions';
import { failureText } from '../failure-text';
import { CommentEditor } from './comment-editor';
import { CommentText } from './comment-text';

export interface CommentItemProps {
  comment: Comment;
  channelId: string;
  deeplink: string;
  members: readonly Mentionable[] | null;
  selfId: string | null;
  /** The comment the address links to (a notification's): marked, and scrolled to and focused once. */
  linked?: boolean;
}

/**
 * One comment of a thread: author, time, text; its author may edit it and an owner may delete it.
 * A linked comment is the current one of its list (`aria-current`, said in its name and drawn
 * with a mark), and the page scrolls to it (at once when the user asks for less motion).
 */
export function CommentItem({ comment, channelId, deeplink, members, selfId, linked = false }: CommentItemProps) {
  const [editing, setEditing] = useState(false);
  const item = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!linked || !item.current) return;
    item.current.scrollIntoView?.({ block: 'center', behavior: matches(REDUCED_MOTION_QUERY) ? 'auto' : 'smooth' });
    item.current.focus({ preventScroll: true });
  }, [linked]);
  const [confirming, setConfirming] = useState(false);
  const edit = useEditComment(channelId, deeplink);
  const remove = useDeleteComment(channelId, deeplink);
  const mentioned = comment.mentions.map((m) => ({ user_id: m.mention_uuid, username: m.mention_value }));

  const save = async (text: string, mentions: string[]) => {
    try {
      await edit.mutateAsync({ commentId: comment.comment_id, text, mentions });
      setEditing(false);
      return true;
    } catch {
      return false;
    }
  };
  const discard = () => {
    edit.reset();
    setEditing(false);
  };

  return (
    <li
      ref={item}
      className={linked ? 'comment comment-linked' : 'comment'}
      data-testid="comment"
      aria-label={`Comment by ${comment.username}${linked ? ', the one you were linked to' : ''}`}
      aria-current={linked ? 'true' : undefined}
      tabIndex={linked ? -1 : undefined}
    >
      <p className="comment-meta small muted">
        <strong className="comment-author">{comment.username || 'Someone'}</strong>
        <time dateTime={comment.created_at}>{formatRelative(comment.created_at)}</time>
        {comment.edited_at && <span>(edited)</span>}
      </p>
      {editing ? (
        <CommentEditor
          label="Edit your comment"
          initialText={comment.comment}
          initialMentions={mentioned}
          members={members}
          selfId={selfId}
          onSave={save}
          onCancel={discard}
          pending={edit.isPending}
          error={edit.error ? failureText(edit.error) : null}
          submitLabel="Save"
        />
      ) : (
        <CommentText text={comment.comment} mentions={comment.mentions} />
      )}
      {!editing && (comment.can_edit || comment.can_delete) && (
        <div className="comment-actions">
          {comment.can_edit && (
            <button type="button" className="button button-quiet button-small" aria-label="Edit your comment" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          {comment.can_delete && (
            <button
              type="button"
              className="button button-quiet button-small"
              aria-label={`Delete comment by ${comment.username}`}
              onClick={() => setConfirming(true)}
            >
              Delete
            </button>
          )}
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title="Delete this comment?"
          confirmLabel="Delete"
          pending={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate(comment.comment_id, { onSettled: () => setConfirming(false) })}
        >
          <p>The comment goes for everyone in the group.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
