/**
 * Query keys for channels (groups) and their comments, from general to specific. They live here
 * rather than in the channels feature because the live-event mapping (src/lib) invalidates them.
 */
import { documentKeys } from './document-keys';

export const channelKeys = {
  all: () => ['channels'] as const,
  /** The channels the user sees (the side navigation, the settings list, Add to group). */
  list: () => [...channelKeys.all(), 'list'] as const,
  /** Every cached fact about one channel: its info and members, the user's membership. */
  channel: (channelId: string) => [...channelKeys.all(), 'channel', channelId] as const,
  info: (channelId: string) => [...channelKeys.channel(channelId), 'info'] as const,
  membership: (channelId: string) => [...channelKeys.channel(channelId), 'me'] as const,
  members: (channelId: string) => [...channelKeys.channel(channelId), 'members'] as const,
  boards: (channelId: string) => [...channelKeys.channel(channelId), 'boards'] as const,
  /** The shared tags on a channel's documents, with counts. */
  tags: (channelId: string) => [...channelKeys.channel(channelId), 'tags'] as const,
  /** The people of the organisation, found by name, for a channel (or `create group`). */
  people: (channelId: string, q: string) => [...channelKeys.all(), 'people', channelId, { q }] as const,
  /**
   * The documents shared into channels. They sit under the document lists, so a document that
   * changes or goes away refreshes them as it does every other list.
   */
  itemLists: () => [...documentKeys.lists(), 'channel'] as const,
  /** One channel's documents, all or (`tagId`) those carrying one shared tag. */
  items: (channelId: string) => [...channelKeys.itemLists(), channelId] as const,
  itemsTagged: (channelId: string, tagId: string | null) => [...channelKeys.items(channelId), { tagId }] as const,
};

export const commentKeys = {
  all: () => ['comments'] as const,
  /** The pages of comments: every channel's (`/needlbox/comments/all`) or one channel's tab. */
  pages: () => [...commentKeys.all(), 'page'] as const,
  page: (channelId: string | null) => [...commentKeys.pages(), { channelId }] as const,
  /** Every document's comments (threads and counts) in one channel. */
  inChannel: (channelId: string) => [...commentKeys.all(), 'document', channelId] as const,
  /** Everything about one document's comments in one channel. */
  document: (channelId: string, deeplink: string) => [...commentKeys.inChannel(channelId), deeplink] as const,
  thread: (channelId: string, deeplink: string) => [...commentKeys.document(channelId, deeplink), 'thread'] as const,
  count: (channelId: string, deeplink: string) => [...commentKeys.document(channelId, deeplink), 'count'] as const,
};
