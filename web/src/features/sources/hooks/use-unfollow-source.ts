import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-client';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { unfollowSource } from '../api/source-api';
import { FOLLOW_FAILED } from '../messages';

/** Returns the toast for a failed follow or unfollow: the server's words when it gave a reason. */
export const followFailureMessage = (error: unknown) =>
  isApiError(error) && error.status < 500 && error.message ? error.message : FOLLOW_FAILED;

/** Stops following a source (by its id); the source lists refetch afterwards. */
export function useUnfollowSource() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: followFailureMessage },
    mutationFn: unfollowSource,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sourceKeys.all() }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
      ]),
  });
}
