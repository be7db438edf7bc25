import type { ConnectedApp, ConnectionState } from '../api/apps-api';
import { awaitingSync, SYNC_WAIT_MS, watchFrom } from './use-connected-app';

const state = (last_synced_at: string | null, last_error: string | null, syncing: boolean): ConnectionState => ({
  username: 'ada',
  imported: 0,
  connected_at: '2026-01-01T00:00:00Z',
  last_synced_at,
  last_error,
  syncing,
});

const base: ConnectedApp = {
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
  mail: null,
  drive: null,
};

const mailApp = (last_synced_at: string | null, last_error: string | null = null, syncing = false): ConnectedApp => ({
  ...base,
  mail: { ...state(last_synced_at, last_error, syncing), host: 'imap.example.org', port: 993, security: 'tls', folders: ['INBOX'] },
});

const driveApp = (last_synced_at: string | null, last_error: string | null = null, syncing = false): ConnectedApp => ({
  ...base,
  key: 'webdav',
  label: 'WebDAV drive',
  category: 'Drives',
  drive: { ...state(last_synced_at, last_error, syncing), url: 'https://cloud.example.com/remote.php/dav/files/ada/Reports/' },
});

describe.each([
  ['a mailbox', mailApp],
  ['a drive', driveApp],
])('waiting for a sync of %s', (_, app) => {
  const now = 1_000_000;
  const watch = watchFrom(app('2026-01-01T10:00:00Z'), now);

  it('waits while the connection shows what it showed when the sync was asked for', () => {
    expect(awaitingSync(app('2026-01-01T10:00:00Z'), watch, now + 1_000)).toBe(true);
  });

  it('stops once the sync is recorded, or failed, or the wait is over', () => {
    expect(awaitingSync(app('2026-01-01T10:05:00Z'), watch, now + 1_000)).toBe(false);
    expect(awaitingSync(app('2026-01-01T10:00:00Z', 'the server could not be reached'), watch, now + 1_000)).toBe(false);
    expect(awaitingSync(app('2026-01-01T10:00:00Z'), watch, now + SYNC_WAIT_MS)).toBe(false);
  });

  it('keeps waiting while a server is still reading it', () => {
    expect(awaitingSync(app('2026-01-01T10:05:00Z', null, true), watch, now + 1_000)).toBe(true);
    expect(awaitingSync(app('2026-01-01T10:05:00Z', null, true), watch, now + SYNC_WAIT_MS)).toBe(false);
  });

  it('does not wait without a sync asked for, or once it is disconnected', () => {
    expect(awaitingSync(app(null), null, now)).toBe(false);
    expect(awaitingSync(base, watchFrom(app(null), now), now)).toBe(false);
  });
});
