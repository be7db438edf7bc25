import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { Notification } from '../api/notification-api';
import { NotificationBell } from './notification-bell';
import { NotificationsPage } from './notifications-page';

const note = (n: number, read = false): Notification => ({
  id: String(n),
  type: 'mention',
  read,
  created_at: '2025-01-01T10:00:00Z',
  actor: { user_id: 'u1', username: `user ${n}` },
  channel: { id: 'c1', name: 'Ports' },
  document: null,
  comment_id: `cm${n}`,
  source: null,
  excerpt: null,
});

describe('NotificationsPage', () => {
  it('says so when there is nothing', async () => {
    stubApi({
      'GET /api/notifications?page=0': () => json(200, { results: [], page: 0 }),
      'GET /api/notifications/unread_count': () => json(200, { results: { count: 0 } }),
    });
    renderWithProviders(<NotificationsPage />, { route: '/notifications' });
    expect(screen.getByText('Loading your notifications')).toBeInTheDocument();
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('loads 20 at a time: a full page offers more, a short one does not', async () => {
    const calls = stubApi({
      'GET /api/notifications?page=0': () => json(200, { results: Array.from({ length: 20 }, (_, i) => note(40 - i)), page: 0 }),
      'GET /api/notifications?page=1': () => json(200, { results: [note(20)], page: 1 }),
      'GET /api/notifications/unread_count': () => json(200, { results: { count: 21 } }),
    });
    renderWithProviders(<NotificationsPage />, { route: '/notifications' });
    const list = await screen.findByRole('list', { name: 'Notifications' });
    expect(within(list).getAllByTestId('notification')).toHaveLength(20);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByTestId('notification')).toHaveLength(21));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.key.startsWith('GET /api/notifications?')).map((c) => c.key)).toEqual([
      'GET /api/notifications?page=0',
      'GET /api/notifications?page=1',
    ]);
  });

  it('marks one read, then all, and the list follows', async () => {
    const calls = stubApi({
      'GET /api/notifications?page=0': () => json(200, { results: [note(2), note(1)], page: 0 }),
      'GET /api/notifications/unread_count': () => json(200, { results: { count: 2 } }),
      'PUT /api/notifications/2/read': () => json(200, { results: { count: 1 } }),
      'PUT /api/notifications/read_all': () => json(200, { results: { count: 0 } }),
    });
    renderWithProviders(<NotificationsPage />, { route: '/notifications' });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as read: user 2 mentioned you in Ports' }));
    await waitFor(() => expect(screen.getAllByTestId('notification')[0]).toHaveAttribute('data-read', 'true'));
    expect(screen.getByText('1 unread')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getAllByTestId('notification')[1]).toHaveAttribute('data-read', 'true'));
    expect(screen.getByText('All caught up')).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('PUT /api/notifications/read_all');
  });
});

describe('NotificationBell', () => {
  it('caps the badge at 99+ and names the count for screen readers', async () => {
    stubApi({ 'GET /api/notifications/unread_count': () => json(200, { results: { count: 150 } }) });
    renderWithProviders(<NotificationBell />, { route: '/feeds/home' });
    expect(await screen.findByTestId('notification-badge')).toHaveTextContent('99+');
    expect(screen.getByRole('link', { name: 'Notifications, 150 unread' })).toHaveAttribute('href', '/notifications');
  });

  it('shows no badge when all is read', async () => {
    stubApi({ 'GET /api/notifications/unread_count': () => json(200, { results: { count: 0 } }) });
    renderWithProviders(<NotificationBell />, { route: '/feeds/home' });
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('notification-badge')).not.toBeInTheDocument();
  });

  it('draws the bell as an SVG icon, so it shows on a machine without an emoji font', async () => {
    stubApi({ 'GET /api/notifications/unread_count': () => json(200, { results: { count: 0 } }) });
    renderWithProviders(<NotificationBell />, { route: '/feeds/home' });
    const bell = await screen.findByRole('link', { name: 'Notifications' });
    expect(bell.querySelector('svg')).not.toBeNull();
    expect(bell.textContent).toBe('');
  });
});
