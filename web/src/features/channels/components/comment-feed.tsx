import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import { formatRelative } from '../../../lib/format';
import { commentQueries, type Comment } from '../api/comment-api';
import { CommentText } from './comment-text';

/**
 * Comments, the newest first: every group's (`/needlbox/comments/all`) or one group's (its
 * comments tab). Each names its author, document and group; the group's page holds the threads.
 */
export function CommentFeed({ channelId }: { channelId: string | null }) {
  const pages = useInfiniteQuery(commentQueries.page(channelId));
  return (
    <ListState
      query={pages}
      loadingLabel="Loading comments"
      errorTitle="Comments could not be loaded"
      isEmpty={(data) => data.pages.every((page) => page.results.length === 0)}
      emptyTitle="No comments yet"
      emptyHint={<p>Comments made on documents in {channelId ? 'this group' : 'your groups'} show up here, the newest first.</p>}
    >
      {(data) => (
        <section aria-label="Comments" className="stack">
          <ol className="comment-feed">
            {data.pages
              .flatMap((page) => page.results)
              .map((comment) => (
                <FeedEntry key={comment.comment_id} comment={comment} showGroup={!channelId} />
              ))}
          </ol>
          {pages.hasNextPage && (
            <button type="button" className="button" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
              {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </button>
          )}
        </section>
      )}
    </ListState>
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
