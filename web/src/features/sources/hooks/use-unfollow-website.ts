import { useMutation, useQueryClient } from '@tanstack/react-query';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { unfollowWebsite } from '../api/website-api';
import { followFailureMessage } from './use-unfollow-source';

/** Stops following a website (by source id); the lists refetch afterwards. */
export function useUnfollowWebsite() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: followFailureMessage },
    mutationFn: unfollowWebsite,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sourceKeys.all() }),
        queryClient.invalidateQueries({ queryKey: documentKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
      ]),
  });
}
