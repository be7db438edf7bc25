import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { followPublic, followPublicMany, unfollowPublic, type Catalogue } from '../api/catalogue-api';
import { followFailureMessage } from './use-unfollow-source';

/** Returns the catalogue with the entries `keys` marked followed or not. */
export const withFollowing = (catalogue: Catalogue | undefined, keys: readonly string[], following: boolean) =>
  catalogue && {
    ...catalogue,
    results: catalogue.results.map((s) => (keys.includes(s.key) ? { ...s, following } : s)),
  };

/** Shows `keys` followed or not in the cached catalogue, after stopping a fetch that would overwrite it. */
async function showFollowing(queryClient: QueryClient, keys: readonly string[], following: boolean) {
  await queryClient.cancelQueries({ queryKey: sourceKeys.catalogue() });
  queryClient.setQueryData<Catalogue>(sourceKeys.catalogue(), (data) => withFollowing(data, keys, following));
}

/**
 * What following changes: every source list (the catalogue included), My Data's tabs (following
 * a public source connects its Exchanges tab) and the document lists it adds to.
 */
const refreshAfterFollow = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: sourceKeys.all() }),
    queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
    queryClient.invalidateQueries({ queryKey: documentKeys.lists() }),
  ]);

export interface PublicFollowChange {
  key: string;
  /** true to follow, false to unfollow. */
  follow: boolean;
}

/**
 * Follows or unfollows one catalogue entry. The catalogue shows the change at once; if the server
 * refuses, that entry goes back (another change may be on its way in the same list) and a toast
 * gives the server's reason or the spec's "Something went wrong. Please try again".
 */
export function useFollowPublic() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: followFailureMessage },
    mutationFn: ({ key, follow }: PublicFollowChange) => (follow ? followPublic(key) : unfollowPublic(key)),
    onMutate: ({ key, follow }) => showFollowing(queryClient, [key], follow),
    onError: (_error, { key, follow }) =>
      queryClient.setQueryData<Catalogue>(sourceKeys.catalogue(), (data) => withFollowing(data, [key], !follow)),
    onSettled: () => refreshAfterFollow(queryClient),
  });
}

/**
 * Follows several catalogue entries in one call (`POST /connect/public/multiple`), shown followed
 * at once and put back as they were if the server refuses, with the same toast as one follow.
 */
export function useFollowPublicMany() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: followFailureMessage },
    mutationFn: (keys: string[]) => followPublicMany(keys),
    onMutate: (keys) => showFollowing(queryClient, keys, true),
    // Only unfollowed entries are offered for selection, so each goes back to unfollowed.
    onError: (_error, keys) =>
      queryClient.setQueryData<Catalogue>(sourceKeys.catalogue(), (data) => withFollowing(data, keys, false)),
    onSettled: () => refreshAfterFollow(queryClient),
  });
}
