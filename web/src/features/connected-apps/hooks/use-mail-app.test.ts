import type { ConnectedApp } from '../api/apps-api';
import { awaitingSync, SYNC_WAIT_MS, watchFrom } from './use-mail-app';

const app = (last_synced_at: string | null, last_error: string | null = null, syncing = false): ConnectedApp => ({
  key: 'email',
  label: 'Email (IMAP)',
  category: 'Emails',
  disabled: false,
  flag: null,
  private: true,
  tokenValid: true,
  connected: true,
  missing: null,
  instead: null,
  mail: {
    host: 'imap.example.org',
    port: 993,
    security: 'tls',
    username: 'ada',
    folders: ['INBOX'],
    imported: 0,
    connected_at: '2026-01-01T00:00:00Z',
    last_synced_at,
    last_error,
    syncing,
  },
});

describe('waiting for a sync', () => {
  const now = 1_000_000;
  const watch = watchFrom(app('2026-01-01T10:00:00Z'), now);

  it('waits while the mailbox shows what it showed when the sync was asked for', () => {
    expect(awaitingSync(app('2026-01-01T10:00:00Z'), watch, now + 1_000)).toBe(true);
  });

  it('stops once the sync is recorded, or failed, or the wait is over', () => {
    expect(awaitingSync(app('2026-01-01T10:05:00Z'), watch, now + 1_000)).toBe(false);
    expect(awaitingSync(app('2026-01-01T10:00:00Z', 'the mail server could not be reached'), watch, now + 1_000)).toBe(false);
    expect(awaitingSync(app('2026-01-01T10:00:00Z'), watch, now + SYNC_WAIT_MS)).toBe(false);
  });

  it('keeps waiting while a server is still reading the mailbox, folder after folder', () => {
    expect(awaitingSync(app('2026-01-01T10:05:00Z', null, true), watch, now + 1_000)).toBe(true);
    expect(awaitingSync(app('2026-01-01T10:05:00Z', null, true), watch, now + SYNC_WAIT_MS)).toBe(false);
  });

  it('does not wait without a sync asked for, or once the mailbox is disconnected', () => {
    expect(awaitingSync(app(null), null, now)).toBe(false);
    expect(awaitingSync({ ...app(null), mail: null }, watchFrom(app(null), now), now)).toBe(false);
  });
});
