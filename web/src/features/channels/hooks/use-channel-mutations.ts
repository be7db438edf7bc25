/** The writes to channels: create, rename and publish, members and roles, star and visits, shares. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { channelKeys } from '../../../lib/queries/channel-keys';
import type { ToastMeta } from '../../../lib/query-client';
import {
  addMembers,
  changeRole,
  createChannel,
  leaveChannel,
  removeMember,
  shareBoard,
  shareItem,
  unshareBoard,
  unshareItem,
  updateChannel,
  updateMembership,
  type Channel,
  type CreateChannelRequest,
  type FeedDraft,
  type Member,
  type Role,
} from '../api/channel-api';

/** Creates a group; the form shows the server's refusal (name rules, a taken name) itself. */
export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false } satisfies ToastMeta,
    mutationFn: (request: CreateChannelRequest) => createChannel(request),
    onSuccess: (channel) => {
      queryClient.setQueryData(channelKeys.info(channel.id), channel);
      return queryClient.invalidateQueries({ queryKey: channelKeys.list() });
    },
  });
}

/** Renames a group or publishes it; the form shows a refusal itself. */
export function useUpdateChannel(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false } satisfies ToastMeta,
    mutationFn: (changes: { name?: string; publish?: boolean }) => updateChannel(channelId, changes),
    onSuccess: (channel) => {
      queryClient.setQueryData(channelKeys.info(channelId), channel);
      return queryClient.invalidateQueries({ queryKey: channelKeys.list() });
    },
  });
}

/** Keeps a member list the server answered, and refreshes what counts members. */
function useMembersAnswer(channelId: string) {
  const queryClient = useQueryClient();
  return (members: Member[] | void) => {
    if (members) queryClient.setQueryData(channelKeys.members(channelId), members);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: channelKeys.channel(channelId) }),
      queryClient.invalidateQueries({ queryKey: channelKeys.list() }),
      queryClient.invalidateQueries({ queryKey: [...channelKeys.all(), 'people', channelId] }),
    ]);
  };
}

export function useAddMembers(channelId: string) {
  const onSuccess = useMembersAnswer(channelId);
  return useMutation({
    meta: { successToast: 'Members added' } satisfies ToastMeta,
    mutationFn: ({ userIds, role }: { userIds: string[]; role?: Role }) => addMembers(channelId, userIds, role),
    onSuccess,
  });
}

export function useChangeRole(channelId: string) {
  const onSuccess = useMembersAnswer(channelId);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => changeRole(channelId, userId, role),
    onSuccess,
  });
}

export function useRemoveMember(channelId: string) {
  const onSuccess = useMembersAnswer(channelId);
  return useMutation({
    mutationFn: (userId: string) => removeMember(channelId, userId),
    onSuccess: () => onSuccess(),
  });
}

export function useLeaveChannel(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { successToast: 'You left the group' } satisfies ToastMeta,
    mutationFn: () => leaveChannel(channelId),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: channelKeys.channel(channelId) });
      return queryClient.invalidateQueries({ queryKey: channelKeys.list() });
    },
  });
}

/** Stars or unstars a group for the user: shown at once, put back if the server refuses. */
export function useStarChannel(channelId: string) {
  const queryClient = useQueryClient();
  const setStar = (starred: boolean) => {
    queryClient.setQueryData<Channel[]>(channelKeys.list(), (list) => list?.map((c) => (c.id === channelId ? { ...c, starred } : c)));
    queryClient.setQueryData<Channel>(channelKeys.info(channelId), (c) => (c ? { ...c, starred } : c));
  };
  return useMutation({
    mutationFn: (starred: boolean) => updateMembership(channelId, { starred }),
    onMutate: async (starred) => {
      await queryClient.cancelQueries({ queryKey: channelKeys.list() });
      setStar(starred);
    },
    onError: (_error, starred) => setStar(!starred),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: channelKeys.list() }),
        queryClient.invalidateQueries({ queryKey: channelKeys.channel(channelId) }),
      ]),
  });
}

/** Records that the user looked at a group now (its last seen); quiet when it fails. */
export function useMarkChannelSeen() {
  return useMutation({
    meta: { toast: false } satisfies ToastMeta,
    mutationFn: (channelId: string) => updateMembership(channelId, { seen: true }),
  });
}

/** Shares a document into a group; the server's refusal becomes a toast. */
export function useShareItem() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { successToast: 'Shared to the group' } satisfies ToastMeta,
    mutationFn: ({ channelId, deeplink }: { channelId: string; deeplink: string }) => shareItem(channelId, deeplink),
    onSuccess: (_answer, { channelId }) => queryClient.invalidateQueries({ queryKey: channelKeys.items(channelId) }),
  });
}

export function useUnshareItem(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { successToast: 'Removed from the group' } satisfies ToastMeta,
    mutationFn: (deeplink: string) => unshareItem(channelId, deeplink),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.items(channelId) }),
  });
}

export function useShareBoard(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false } satisfies ToastMeta,
    mutationFn: (feed: FeedDraft) => shareBoard(channelId, feed),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.channel(channelId) }),
  });
}

export function useUnshareBoard(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (boardId: string) => unshareBoard(channelId, boardId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.channel(channelId) }),
  });
}
