/**
 * Notifications feature: the header's bell with the unread count (99+ past 99) and the
 * `/notifications` page (20 a page, newest first, "Load more", mark one or all read, links to the
 * item or channel). It owns the calls under /notifications; its query keys live in src/lib/queries
 * because the live socket refreshes them when a notification arrives ("sockets notify, queries
 * fetch").
 * The page is a second entry, `pages.ts`, which the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export { NotificationBell } from './components/notification-bell';
export { badgeLabel } from './notification-text';
