import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ListState } from '../../../components/ui/list-state';
import { notificationQueries } from '../api/notification-api';
import { useMarkRead } from '../hooks';
import { NotificationItem } from './notification-item';

/** `/notifications`: the newest first, 20 at a time with "Load more"; mark one or all read. */
export function NotificationsPage({ now }: { now?: Date }) {
  const pages = useInfiniteQuery(notificationQueries.pages());
  const unread = useQuery(notificationQueries.unread());
  const mark = useMarkRead();
  return (
    <div className="page-narrow stack-lg">
      <div className="notifications-toolbar">
        <span className="small muted">{unread.data ? `${unread.data} unread` : 'All caught up'}</span>
        <button type="button" className="button" disabled={!unread.data || mark.isPending} onClick={() => mark.mutate('all')}>
          Mark all as read
        </button>
      </div>
      <ListState
        query={pages}
        loadingLabel="Loading your notifications"
        errorTitle="Your notifications could not be loaded"
        isEmpty={(data) => data.pages.every((page) => page.results.length === 0)}
        emptyTitle="No notifications yet"
        emptyHint={<p>Mentions, comments on items you follow and new items of your high-priority sources show here.</p>}
      >
        {(data) => (
          <ul className="stack" aria-label="Notifications">
            {data.pages
              .flatMap((page) => page.results)
              .map((n) => (
                <NotificationItem key={n.id} notification={n} onRead={(id) => mark.mutate(id)} now={now} />
              ))}
          </ul>
        )}
      </ListState>
      {pages.hasNextPage && (
        <button type="button" className="button" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}
