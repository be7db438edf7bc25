/**
 * Edits of cached tag data, made with immer so each returns a new copy and leaves the one it was
 * given alone (React Query compares by identity, and a revert restores the old copy as it was).
 * Each takes `undefined` when nothing is cached and then returns `undefined`.
 */
import { produce } from 'immer';
import type { DocumentTagIndex, Tag } from './api/tag-api';

/** An infinite list of documents as React Query caches it; only deeplinks matter here. */
export interface CachedDocumentPages {
  pages: Array<{ results: Array<{ deeplink: string }> }>;
  pageParams: unknown[];
}

/** Returns the index with the document bookmarked (`on`) or not. */
export const withBookmark = (index: DocumentTagIndex | undefined, on: boolean): DocumentTagIndex | undefined =>
  index &&
  produce(index, (draft) => {
    draft.bookmarked = on;
  });

/** Returns the list without the document (an unbookmarked card leaves the bookmarks at once). */
export const withoutDocument = <T extends CachedDocumentPages>(list: T | undefined, deeplink: string): T | undefined =>
  list &&
  produce(list, (draft) => {
    for (const page of draft.pages) page.results = page.results.filter((doc) => doc.deeplink !== deeplink);
  });

const byName = (a: Tag, b: Tag) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id);

/** Returns the user's tags with `tag` added or replaced, by name as the server lists them. */
export const withTag = (tags: Tag[] | undefined, tag: Tag): Tag[] | undefined =>
  tags &&
  produce(tags, (draft) => {
    const at = draft.findIndex((t) => t.id === tag.id);
    if (at >= 0) draft[at] = tag;
    else draft.push(tag);
    draft.sort(byName);
  });

/** Returns the user's tags without those in `tagIds`. */
export const withoutTags = (tags: Tag[] | undefined, tagIds: readonly string[]): Tag[] | undefined =>
  tags && tags.filter((t) => !tagIds.includes(t.id));

/** Returns a document's index with a renamed tag's new name wherever it shows. */
export const withRenamedTag = (index: DocumentTagIndex | undefined, tag: Tag): DocumentTagIndex | undefined =>
  index &&
  produce(index, (draft) => {
    for (const t of [...draft.user_tags, ...draft.shared_tags]) if (t.id === tag.id) t.name = tag.name;
  });

/** Returns a document's index without deleted tags. */
export const withoutDeletedTags = (index: DocumentTagIndex | undefined, tagIds: readonly string[]): DocumentTagIndex | undefined =>
  index &&
  produce(index, (draft) => {
    draft.user_tags = draft.user_tags.filter((t) => !tagIds.includes(t.id));
  });
