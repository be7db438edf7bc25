import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { CardActionTarget } from '../../../lib/card-actions';
import { useCardScope } from '../../../lib/card-details';
import { featureQueries } from '../../../lib/queries/feature-queries';
import { commentQueries } from '../api/comment-api';
import { CommentThread } from './comment-thread';

/**
 * A card's Comments button and thread, only on cards read in a group (comments live in groups)
 * and with the `comments` flag. The button shows the count, and how many are new to the user.
 * Where the card scope says so (a notification's link), the thread starts open with the linked
 * comment highlighted.
 */
export function CardComments({ target }: { target: CardActionTarget }) {
  const { channelId, openComments = false, linkedCommentId = null } = useCardScope();
  const enabled = useQuery(featureQueries.config()).data?.features.comments !== false;
  if (!channelId || !enabled) return null;
  return <Comments target={target} channelId={channelId} startOpen={openComments} linkedCommentId={linkedCommentId} />;
}

interface CommentsProps {
  target: CardActionTarget;
  channelId: string;
  startOpen: boolean;
  linkedCommentId: string | null;
}

function Comments({ target, channelId, startOpen, linkedCommentId }: CommentsProps) {
  const [open, setOpen] = useState(startOpen);
  const threadId = useId();
  const count = useQuery(commentQueries.count(channelId, target.deeplink)).data;
  const total = count?.count ?? 0;
  const unseen = count?.unseen ?? 0;
  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        aria-expanded={open}
        aria-controls={open ? threadId : undefined}
        aria-label={`Comments on ${target.title}: ${total}${unseen ? `, ${unseen} new` : ''}`}
        data-testid="comments-button"
        onClick={() => setOpen((o) => !o)}
      >
        Comments <span className="comment-count">{total}</span>
        {unseen > 0 && <span className="badge">{unseen > 99 ? '99+' : unseen} new</span>}
      </button>
      {open && (
        <div id={threadId} className="card-comments">
          <CommentThread
            channelId={channelId}
            deeplink={target.deeplink}
            source={target.source}
            title={target.title}
            linkedCommentId={linkedCommentId}
          />
        </div>
      )}
    </>
  );
}
