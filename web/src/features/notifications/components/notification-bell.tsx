import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { notificationQueries } from '../api/notification-api';
import { badgeLabel } from '../notification-text';
import { BellIcon } from '../../../components/ui/icons';

/** The header's bell: to the notifications page, with the unread count (99+ past 99). */
export function NotificationBell() {
  const unread = useQuery(notificationQueries.unread());
  const count = unread.data ?? 0;
  const badge = badgeLabel(count);
  return (
    <Link
      className="button button-quiet notification-bell"
      to="/notifications"
      aria-label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
      data-testid="notification-bell"
    >
      <BellIcon size={20} />
      {badge && (
        <span className="notification-badge" aria-hidden="true" data-testid="notification-badge">
          {badge}
        </span>
      )}
    </Link>
  );
}
