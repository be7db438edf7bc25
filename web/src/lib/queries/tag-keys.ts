/**
 * Query keys for tags and bookmarks, from general to specific. They live here rather than in the
 * tags feature because the live-event mapping (src/lib) invalidates them too.
 */
import { documentKeys } from './document-keys';

export const tagKeys = {
  all: () => ['tags'] as const,
  /** The user's own tags, by name. */
  userTags: () => [...tagKeys.all(), 'user-tags'] as const,
  /** Every document's tag index (its user and shared tags, and whether it is bookmarked). */
  indexes: () => [...tagKeys.all(), 'index'] as const,
  /** Every cached index of one document, whichever channel it was read in. */
  document: (deeplink: string) => [...tagKeys.indexes(), deeplink] as const,
  /** One document's tags as read in a channel (`null`: outside any channel). */
  index: (deeplink: string, channelId: string | null) => [...tagKeys.document(deeplink), { channelId }] as const,
  /**
   * Document lists chosen by tags. They sit under the document lists, so a document that changes
   * or goes away refreshes them as it does every other list.
   */
  listings: () => [...documentKeys.lists(), 'tagged'] as const,
  /** The user's bookmarks, most recent first. */
  bookmarks: () => [...tagKeys.listings(), 'bookmarks'] as const,
  /** The documents under one of the user's tags (`null`: under any of them). */
  tagged: (tagId: string | null) => [...tagKeys.listings(), 'tag', { tagId }] as const,
};
