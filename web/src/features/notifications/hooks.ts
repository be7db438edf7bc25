/** The writes to notifications: mark one or all read; the badge and the list follow at once. */
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { notificationKeys } from '../../lib/queries/notification-keys';
import { markAllRead, markRead, type NotificationPage } from './api/notification-api';

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | 'all') => (id === 'all' ? markAllRead() : markRead(id)),
    onSuccess: (count, id) => {
      queryClient.setQueryData(notificationKeys.unread(), count);
      queryClient.setQueryData<InfiniteData<NotificationPage>>(notificationKeys.pages(), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                results: page.results.map((n) => (id === 'all' || n.id === id ? { ...n, read: true } : n)),
              })),
            }
          : data,
      );
    },
  });
}
