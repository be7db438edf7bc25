import { screen, within } from '@testing-library/react';
import { sessionStore, type SessionUser } from '../../../lib/session-store';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { OutboxMessage } from '../api/outbox-api';
import { OutboxPage } from './outbox-page';

const ADMIN: SessionUser = { id: 'u-ada', email_id: 'ada@example.com', username: 'ada', is_admin: true };

const NEWER: OutboxMessage = {
  id: 'm2',
  channel: 'whatsapp',
  recipient: '+44 7700 900123',
  body: 'Your Needl verification code is 654321. It expires in 10 minutes.',
  created_at: '2025-03-04T10:05:00Z',
};
const OLDER: OutboxMessage = { ...NEWER, id: 'm1', recipient: '+91 98765 43210', body: 'Your Needl verification code is 123456.', created_at: '2025-03-04T09:00:00Z' };

describe('the outbox page', () => {
  afterEach(() => sessionStore.signOut());

  it("lists the messages newest first, each with its channel, recipient, text and time", async () => {
    sessionStore.signIn('tok', ADMIN);
    const calls = stubApi({ 'GET /api/admin/outbox?limit=50': () => json(200, { messages: [NEWER, OLDER] }) });
    renderWithProviders(<OutboxPage />, { route: '/settings/outbox' });
    const items = within(await screen.findByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'WhatsApp to +44 7700 900123',
      'WhatsApp to +91 98765 43210',
    ]);
    expect(items[0]).toHaveTextContent('Your Needl verification code is 654321. It expires in 10 minutes.');
    expect(within(items[0]).getByText(/04-03-2025|ago|yesterday/, { selector: 'time' })).toHaveAttribute('datetime', NEWER.created_at);
    expect(calls.map((c) => c.key)).toContain('GET /api/admin/outbox?limit=50');
  });

  it('explains an empty outbox: with no messaging provider, codes are delivered here to pass on', async () => {
    sessionStore.signIn('tok', ADMIN);
    stubApi({ 'GET /api/admin/outbox?limit=50': () => json(200, { messages: [] }) });
    renderWithProviders(<OutboxPage />, { route: '/settings/outbox' });
    expect(await screen.findByRole('heading', { name: 'No messages waiting' })).toBeInTheDocument();
    expect(
      screen.getByText(/With no messaging provider configured, verification codes are delivered here for an administrator to pass on/),
    ).toBeInTheDocument();
  });

  it('says the outbox could not be loaded, with Try again', async () => {
    sessionStore.signIn('tok', ADMIN);
    stubApi({ 'GET /api/admin/outbox?limit=50': () => json(500, { code: 'internal', message: 'internal error' }) });
    renderWithProviders(<OutboxPage />, { route: '/settings/outbox' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The outbox could not be loaded');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('is read by administrators only: a member is told so and nothing is asked of the server', () => {
    sessionStore.signIn('tok', { ...ADMIN, is_admin: false });
    const calls = stubApi({});
    renderWithProviders(<OutboxPage />, { route: '/settings/outbox' });
    expect(screen.getByText('Only administrators read the outbox.')).toBeInTheDocument();
    expect(calls.filter((c) => c.key.includes('outbox'))).toHaveLength(0);
  });
});
