import { failure, useUnfollowFeed } from '../../../lib/queries/use-feed-actions';
import { FOLLOW_FAILED } from '../messages';

/** Returns the toast for a failed follow or unfollow: the server's words when it gave a reason. */
export const followFailureMessage = failure(FOLLOW_FAILED);

/** Stops following a source (by its id); the source lists refetch afterwards. */
export function useUnfollowSource() {
  return useUnfollowFeed(FOLLOW_FAILED);
}
