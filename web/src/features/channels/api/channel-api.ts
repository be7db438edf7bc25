/**
 * Calls and queries for channels (the spec's groups): the list, one channel with its members,
 * the caller's membership (starred, last seen), the people to choose members from, feeds shared
 * into a channel, its shared tags, and the documents shared into it. Answers are checked with
 * zod, so a server that drifts from the contract fails here rather than in a component.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { channelKeys } from '../../../lib/queries/channel-keys';

/** The settings page's pseudo id for a group being created. */
export const CREATE_GROUP = 'create group';

const memberSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  role: z.enum(['member', 'owner']),
  added_at: z.string(),
});

export type Member = z.infer<typeof memberSchema>;
export type Role = Member['role'];

const channelSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The caller's role (someone seeing a published channel without being in it is a member). */
  role: z.enum(['member', 'owner']),
  /** Whether the caller is a member in their own right, not only through publishing. */
  member: z.boolean(),
  publish: z.boolean(),
  organization: z.object({ id: z.number(), domain: z.string(), name: z.string() }),
  publish_title: z.string(),
  show_publish_option: z.boolean(),
  singlefeed: z.boolean(),
  needl_feed: z.boolean(),
  starred: z.boolean(),
  last_seen: z.string().nullable(),
  member_count: z.number(),
  board_count: z.number(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  members: z.array(memberSchema).optional(),
});

export type Channel = z.infer<typeof channelSchema>;

const membershipSchema = z.object({
  channel_id: z.string(),
  user_id: z.string(),
  role: z.enum(['member', 'owner']),
  member: z.boolean(),
  starred: z.boolean(),
  last_seen: z.string().nullable(),
});

export type Membership = z.infer<typeof membershipSchema>;

const personSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  // Hidden (null) unless the caller is an administrator or shares a channel with them.
  email: z.string().nullable(),
  role: z.enum(['member', 'owner']).nullable(),
});

/** Someone of the organisation, and their role in the channel (`null`: not in it). */
export type Person = z.infer<typeof personSchema>;

const boardSchema = z.object({
  board_id: z.string(),
  board_name: z.string(),
  channel_id: z.string(),
  created_at: z.string(),
  shared_by: z.string(),
  isNew: z.boolean(),
  definition: z.record(z.string(), z.unknown()),
});

/** A feed shared into a channel. */
export type Board = z.infer<typeof boardSchema>;

const channelTagSchema = z.object({ id: z.string(), name: z.string(), count: z.number() });
export type ChannelTag = z.infer<typeof channelTagSchema>;

const listAnswer = z.object({ channels: z.array(channelSchema) });
const channelAnswer = z.object({ channel: channelSchema });
const membersAnswer = z.object({ results: z.array(memberSchema) });
const membershipAnswer = z.object({ results: membershipSchema });
const peopleAnswer = z.object({ results: z.array(personSchema) });
const boardsAnswer = z.object({ results: z.array(boardSchema) });
const boardAnswer = z.object({ results: boardSchema });
const tagsAnswer = z.object({ results: z.array(channelTagSchema) });

const at = (channelId: string, rest = '') => `/channels/${encodeURIComponent(channelId)}${rest}`;

/** How long the channel list and one channel's info stay fresh (the spec: 15 s and 60 s). */
export const CHANNEL_LIST_STALE_MS = 15_000;
export const CHANNEL_INFO_STALE_MS = 60_000;

export const channelQueries = {
  /** The channels the user sees: starred first, then by name. */
  list: () =>
    queryOptions({
      queryKey: channelKeys.list(),
      queryFn: async ({ signal }) => listAnswer.parse(await api.get<unknown>('/channels', { signal })).channels,
      staleTime: CHANNEL_LIST_STALE_MS,
    }),
  /** One channel with its members; the pages show a 404 themselves ("not found, or not yours"). */
  info: (channelId: string) =>
    queryOptions({
      queryKey: channelKeys.info(channelId),
      queryFn: async ({ signal }) => channelAnswer.parse(await api.get<unknown>(at(channelId), { signal })).channel,
      staleTime: CHANNEL_INFO_STALE_MS,
      meta: { toast: false },
    }),
  members: (channelId: string) =>
    queryOptions({
      queryKey: channelKeys.members(channelId),
      queryFn: async ({ signal }) => membersAnswer.parse(await api.get<unknown>(at(channelId, '/users'), { signal })).results,
    }),
  /** The people of the organisation whose name or email contains `q`, with their role in the channel. */
  people: (channelId: string, q: string) =>
    queryOptions({
      queryKey: channelKeys.people(channelId, q),
      queryFn: async ({ signal }) => {
        const params = new URLSearchParams({ limit: '20' });
        if (q.trim()) params.set('q', q.trim());
        return peopleAnswer.parse(await api.get<unknown>(at(channelId, `/users/all?${params}`), { signal })).results;
      },
    }),
  boards: (channelId: string) =>
    queryOptions({
      queryKey: channelKeys.boards(channelId),
      queryFn: async ({ signal }) => boardsAnswer.parse(await api.get<unknown>(at(channelId, '/boards'), { signal })).results,
    }),
  tags: (channelId: string) =>
    queryOptions({
      queryKey: channelKeys.tags(channelId),
      queryFn: async ({ signal }) => tagsAnswer.parse(await api.get<unknown>(at(channelId, '/tags'), { signal })).results,
      staleTime: 60_000,
    }),
};

/**
 * The documents shared into a channel, for the documents feature's list: a key and the call
 * (which pages with `page` and `limit`), all of them or those carrying one shared tag.
 */
export const channelListings = {
  items: (channelId: string, tagId: string | null = null) => ({
    queryKey: channelKeys.itemsTagged(channelId, tagId),
    path: at(channelId, tagId ? `/items?${new URLSearchParams({ tag_id: tagId })}` : '/items'),
  }),
};

export interface CreateChannelRequest {
  name: string;
  publish: boolean;
  /** User ids of the first members besides the creator. */
  members: string[];
}

export const createChannel = async (request: CreateChannelRequest): Promise<Channel> =>
  channelAnswer.parse(await api.post<unknown>('/channels', { body: request })).channel;

export const updateChannel = async (channelId: string, changes: { name?: string; publish?: boolean }): Promise<Channel> =>
  channelAnswer.parse(await api.put<unknown>(at(channelId), { body: changes })).channel;

export const addMembers = async (channelId: string, userIds: string[], role: Role = 'member'): Promise<Member[]> =>
  membersAnswer.parse(await api.post<unknown>(at(channelId, '/users'), { body: { user_ids: userIds, role } })).results;

export const changeRole = async (channelId: string, userId: string, role: Role): Promise<Member[]> =>
  membersAnswer.parse(await api.put<unknown>(at(channelId, `/users/${encodeURIComponent(userId)}`), { body: { role } }))
    .results;

export const removeMember = (channelId: string, userId: string) =>
  api.delete<void>(at(channelId, `/users/${encodeURIComponent(userId)}`));

export const leaveChannel = (channelId: string) => api.delete<void>(at(channelId, '/users/self'));

/** Stars or unstars a channel for the caller, or (`seen`) records that they looked at it now. */
export const updateMembership = async (channelId: string, changes: { starred?: boolean; seen?: boolean }): Promise<Membership> =>
  membershipAnswer.parse(await api.put<unknown>(at(channelId, '/users/me'), { body: changes })).results;

/** Shares a document the caller can read into a channel; sharing it again changes nothing. */
export const shareItem = (channelId: string, deeplink: string) =>
  api.post<unknown>(at(channelId, '/items'), { body: { deeplink } });

export const unshareItem = (channelId: string, deeplink: string) =>
  api.delete<void>(at(channelId, `/items/${encodeURIComponent(deeplink)}`));

export interface FeedDraft {
  name: string;
  description: string;
  /** Keywords the feed's documents must match (each a keyword expression). */
  keywords: string[];
}

/** Shares a new keyword feed into a channel (owners only). */
export const shareBoard = async (channelId: string, feed: FeedDraft): Promise<Board> =>
  boardAnswer.parse(
    await api.post<unknown>(at(channelId, '/boards'), {
      body: {
        definition: {
          name: feed.name,
          description: feed.description,
          keywords: { include: feed.keywords.map((keyword) => ({ keyword, valid: true })), exclude: [] },
          group: 'default',
        },
      },
    }),
  ).results;

export const unshareBoard = (channelId: string, boardId: string) =>
  api.delete<void>(at(channelId, `/boards/${encodeURIComponent(boardId)}`));
