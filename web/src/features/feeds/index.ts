/**
 * Feeds feature: custom feeds (the spec's boards). The builder as a page (/custom-feed) and as
 * the `custom-feed` overlay, with every page of the spec (feed type, templates, keyword and AI
 * editors with a live preview of matches, suggestions); its state is a pure reducer
 * (builder-state.ts) and keywords are checked in the browser by the server's rules. Also the
 * feeds in the side navigation, the feed page's frame (edit, undo, sub-tabs), the settings list
 * (/settings/feeds: on/off, rename, duplicate, delete, share to a group, alerts and priority),
 * Add to Feeds on cards, and More / Less like this on an AI feed's cards (TopicFeedback). The app composes a feed's documents with the documents feature's
 * list (boardListings) and its comments with the channels feature's.
 * Every call and shape is in api/feeds-api.ts; the query keys live in src/lib/queries/board-keys.ts
 * because the live socket invalidates them too. Pricing gates: add_feed, enable_feed, view_myfeeds.
 * The builder (page and overlay body) and the settings list are a second entry, `pages.ts`,
 * which the app loads on demand.
 * Depends on: src/lib, src/components.
 */
export { boardListings, boardQueries, type BoardSummary } from './api/feeds-api';
export { AddToFeeds } from './components/add-to-feeds';
export { FeedFrame, feedTabOf, type FeedTab } from './components/feed-frame';
export { FeedNavList } from './components/feed-nav-list';
export { TopicFeedback } from './components/topic-feedback';
export { useFeedLabels, useIsFeed } from './hooks/use-feed-labels';
export { BUILDER_PAGES } from './builder-pages';
export { NO_FEEDS } from './messages';
