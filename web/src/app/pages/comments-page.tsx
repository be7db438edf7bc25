import { CommentFeed } from '../../features/channels';

/** `/needlbox/comments/all` (and `/needlbox/comments`): the comments in every group the user sees, newest first. */
export function CommentsPage() {
  return (
    <div className="page-narrow">
      <CommentFeed channelId={null} />
    </div>
  );
}
