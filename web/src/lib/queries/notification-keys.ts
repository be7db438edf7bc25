/**
 * Query keys for notifications. They live here rather than in the notifications feature because
 * the live-event mapping (src/lib) invalidates them when a notification arrives or is read.
 */
export const notificationKeys = {
  all: () => ['notifications'] as const,
  /** The paged list, 20 a page, newest first. */
  pages: () => [...notificationKeys.all(), 'pages'] as const,
  /** The unread count behind the header's badge. */
  unread: () => [...notificationKeys.all(), 'unread'] as const,
};
