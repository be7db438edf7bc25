/** What the connection pages' tests share: the apps as the server lists them, the API stub, the bodies sent. */
import { json, stubApi } from '../../test/render';
import type { ConnectedApp, DriveConnection, MailConnection } from './api/apps-api';

/** Returns the instant `n` minutes ago, as the server writes instants. */
export const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

/** Returns an app that works here but is not connected. */
const notConnected = (key: string, label: string, category: string): ConnectedApp => ({
  key,
  label,
  category,
  disabled: false,
  flag: null,
  private: true,
  tokenValid: null,
  connected: false,
  missing: null,
  instead: null,
  mail: null,
  drive: null,
});

export const MAIL_NOT_CONNECTED = notConnected('email', 'Email (IMAP)', 'Emails');
export const WEBDAV_NOT_CONNECTED = notConnected('webdav', 'WebDAV drive', 'Drives');

export const MAILBOX: MailConnection = {
  host: 'imap.example.org',
  port: 993,
  security: 'tls',
  username: 'ada@example.org',
  folders: ['INBOX', 'Reports'],
  imported: 1234,
  connected_at: minutesAgo(60 * 24 * 3),
  last_synced_at: minutesAgo(5),
  last_error: null,
  syncing: false,
};

export const FOLDER = 'https://cloud.example.com/remote.php/dav/files/ann/Reports/';

export const DRIVE: DriveConnection = {
  url: FOLDER,
  username: 'ann',
  imported: 1234,
  connected_at: minutesAgo(60 * 24 * 3),
  last_synced_at: minutesAgo(5),
  last_error: null,
  syncing: false,
  next_sync_at: null,
};

/** Returns the mail app connected to `MAILBOX`, changed by `mail` and `app`. */
export const connectedMail = (mail: Partial<MailConnection> = {}, app: Partial<ConnectedApp> = {}): ConnectedApp => ({
  ...MAIL_NOT_CONNECTED,
  tokenValid: true,
  connected: true,
  mail: { ...MAILBOX, ...mail },
  ...app,
});

/** Returns the WebDAV app connected to `DRIVE`, changed by `drive` and `app`. */
export const connectedDrive = (drive: Partial<DriveConnection> = {}, app: Partial<ConnectedApp> = {}): ConnectedApp => ({
  ...WEBDAV_NOT_CONNECTED,
  tokenValid: true,
  connected: true,
  drive: { ...DRIVE, ...drive },
  ...app,
});

/** Stubs the API with the feature flags every page asks for (pricing off, as on a self-hosted instance). */
export const stubConnectionApi = (routes: Parameters<typeof stubApi>[0]) =>
  stubApi({ 'GET /api/feature/config': () => json(200, { features: {} }), ...routes });

/** Returns the body each call to `key` sent, in order. */
export const bodiesOf = (calls: Array<{ key: string; body: unknown }>, key: string) =>
  calls.filter((c) => c.key === key).map((c) => c.body);
