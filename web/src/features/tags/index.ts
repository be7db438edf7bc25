/**
 * Tags feature: the user's tags and bookmarks. On cards (through the card extension slots the app
 * fills): the bookmark toggle (optimistic, reverted on error), the Tags picker ('Find tag or
 * create one', create inline, 'Done' saves with the base it started from) and the card's tags (2
 * shared and 2 of the user's first; 5 visible on desktop, 1 on mobile, the rest in a popup). Also
 * the tags manager (`settings/manage-tags`), the tag filter of `/needlbox/tags/all`, and the
 * document lists of the bookmarks and tags pages, which the app shows with the documents feature's
 * list. It owns the calls under /tag and /bookmarks; its query keys live in src/lib/queries
 * because the live socket invalidates them too.
 * The tags manager is a second entry, `pages.ts`, which the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export { tagListings, tagQueries, type Tag } from './api/tag-api';
export { CardTagActions } from './components/card-tag-actions';
export { CardTags } from './components/card-tags';
export { TagFilter } from './components/tag-filter';
