import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { formatRelative } from '../../../lib/format';
import { commentQueries, type Comment } from '../api/comment-api';
import { CommentText } from './comment-text';

/**
 * Comments, the newest first: every group's (`/needlbox/comments/all`) or one group's (its
 * comments tab). Each names its author, document and group; the group's page holds the threads.
 */
export function CommentFeed({ channelId }: { channelId: string | null }) {
  const pages = useInfiniteQuery(commentQueries.page(channelId));
  if (pages.isPending) return <Spinner label="Loading comments" />;
  if (pages.isError) {
    return (
      <EmptyState title="Comments could not be loaded">
        <button type="button" className="button" onClick={() => void pages.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  const comments = pages.data.pages.flatMap((page) => page.results);
  if (comments.length === 0) {
    return (
      <EmptyState title="No comments yet">
        <p>Comments made on documents in {channelId ? 'this group' : 'your groups'} show up here, the newest first.</p>
      </EmptyState>
    );
  }
  return (
    <section aria-label="Comments" className="stack">
      <ol className="comment-feed">
        {comments.map((comment) => (
          <FeedEntry key={comment.comment_id} comment={comment} showGroup={!channelId} />
        ))}
      </ol>
      {pages.hasNextPage && (
        <button type="button" className="button" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}

function FeedEntry({ comment, showGroup }: { comment: Comment; showGroup: boolean }) {
  const group = `/channels/${encodeURIComponent(comment.channel_id)}`;
  return (
    <li className="card comment-entry" data-testid="comment-entry">
      <p className="comment-meta small muted">
        <strong className="comment-author">{comment.username || 'Someone'}</strong>
        <span>
          on <Link to={group}>{comment.document_title ?? 'a document no longer there'}</Link>
        </span>
        {showGroup && (
          <span>
            in <Link to={group}>{comment.channel_name}</Link>
          </span>
        )}
        <time dateTime={comment.created_at}>{formatRelative(comment.created_at)}</time>
        {comment.edited_at && <span>(edited)</span>}
      </p>
      <CommentText text={comment.comment} mentions={comment.mentions} />
    </li>
  );
}
