/** What a notification says, where it leads, and the bell's badge: pure, for the components and tests. */
import { previewPath } from '../../lib/document-links';
import type { Notification } from './api/notification-api';

/** The spec's badge maximum: past it the badge shows "99+". */
export const BADGE_MAX = 99;

/** Returns the badge text for `count` unread notifications: nothing for none, "99+" past 99. */
export function badgeLabel(count: number): string {
  if (count <= 0) return '';
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}

/** Returns the sentence a notification shows. */
export function notificationText(n: Notification): string {
  const who = n.actor?.username || 'Someone';
  const where = n.channel ? ` in ${n.channel.name}` : '';
  const what = n.document ? ` on ${n.document.title}` : '';
  switch (n.type) {
    case 'mention':
      return `${who} mentioned you${where}`;
    case 'comment':
      return `${who} commented${what}${where}`;
    case 'source_item':
      return `New in ${n.source?.label ?? 'a high-priority source'}${n.document ? `: ${n.document.title}` : ''}`;
    case 'feed_match':
      return `New in your feed ${n.feed?.label ?? ''}: ${n.excerpt ?? n.document?.title ?? ''}`.replace(/ {2}/, ' ');
    case 'feed_digest':
      return `Today in ${n.feed?.label ?? 'your feed'}: ${n.excerpt ?? ''}`;
    case 'summary_ready':
      return n.document ? `Your summary of ${n.document.title} is ready` : 'Your summary is ready';
    case 'report_ready':
      return 'Your report is ready';
    default:
      return 'New notification';
  }
}

/**
 * Returns where a notification leads: its document (with the comment open), a feed's page for a
 * digest, else its channel.
 */
export function notificationLink(n: Notification): string | null {
  if (n.type === 'feed_digest' && n.feed) return `/feeds/${encodeURIComponent(n.feed.id)}`;
  if (n.document) {
    const extra: Record<string, string> = {};
    if (n.channel) extra.channel_id = n.channel.id;
    if (n.comment_id) Object.assign(extra, { comments: 'true', comment_id: n.comment_id });
    return previewPath(n.document, n.channel ? 'channels' : 'feeds', extra);
  }
  if (n.channel) return `/channels/${encodeURIComponent(n.channel.id)}`;
  return null;
}
