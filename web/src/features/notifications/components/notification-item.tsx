import { Link } from 'react-router';
import { formatRelative } from '../../../lib/format';
import type { Notification } from '../api/notification-api';
import { notificationLink, notificationText } from '../notification-text';

export interface NotificationItemProps {
  notification: Notification;
  onRead: (id: string) => void;
  now?: Date;
}

/** One notification: what happened (to its item or channel), when, and a "Mark as read" while unread. */
export function NotificationItem({ notification: n, onRead, now }: NotificationItemProps) {
  const text = notificationText(n);
  const to = notificationLink(n);
  return (
    <li className={`notification-item card${n.read ? '' : ' notification-unread'}`} data-testid="notification" data-read={n.read}>
      <div className="notification-body">
        {!n.read && <span className="unread-dot" role="img" aria-label="Unread" />}
        {to ? (
          <Link to={to} onClick={() => !n.read && onRead(n.id)}>
            {text}
          </Link>
        ) : (
          <span>{text}</span>
        )}
        {n.excerpt && <p className="small notification-excerpt">{n.excerpt}</p>}
        <time className="small muted" dateTime={n.created_at}>
          {formatRelative(n.created_at, now)}
        </time>
      </div>
      {!n.read && (
        <button type="button" className="button button-quiet small" onClick={() => onRead(n.id)} aria-label={`Mark as read: ${text}`}>
          Mark as read
        </button>
      )}
    </li>
  );
}
