import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { notificationQueries } from '../api/notification-api';
import { useMarkRead } from '../hooks';
import { NotificationItem } from './notification-item';

/** `/notifications`: the newest first, 20 at a time with "Load more"; mark one or all read. */
export function NotificationsPage({ now }: { now?: Date }) {
  const pages = useInfiniteQuery(notificationQueries.pages());
  const unread = useQuery(notificationQueries.unread());
  const mark = useMarkRead();
  const all = pages.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <div className="page-narrow stack-lg">
      <div className="notifications-toolbar">
        <span className="small muted">{unread.data ? `${unread.data} unread` : 'All caught up'}</span>
        <button type="button" className="button" disabled={!unread.data || mark.isPending} onClick={() => mark.mutate('all')}>
          Mark all as read
        </button>
      </div>
      {pages.isPending ? (
        <Spinner label="Loading your notifications" />
      ) : pages.isError ? (
        <div className="form-error" role="alert">
          Your notifications could not be loaded.{' '}
          <button type="button" className="button button-quiet" onClick={() => void pages.refetch()}>
            Try again
          </button>
        </div>
      ) : all.length === 0 ? (
        <EmptyState title="No notifications yet">
          <p>Mentions, comments on items you follow and new items of your high-priority sources show here.</p>
        </EmptyState>
      ) : (
        <ul className="stack" aria-label="Notifications">
          {all.map((n) => (
            <NotificationItem key={n.id} notification={n} onRead={(id) => mark.mutate(id)} now={now} />
          ))}
        </ul>
      )}
      {pages.hasNextPage && (
        <button type="button" className="button" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}
