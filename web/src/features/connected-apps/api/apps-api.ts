/**
 * The apps people bring their own documents in from (`GET /connect/apps`), and the two connected
 * here: mail over IMAP and a WebDAV drive. For each, checking an account (the server signs in and
 * lists what it found, and records nothing), connecting it, syncing now and disconnecting; mail
 * also chooses its folders. Answers are parsed, so a server that drifts from docs/api.md fails
 * here rather than in a component.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';

/** The key of mail over IMAP, as in /connect/app/email and the `email` source of its documents. */
export const MAIL_APP = 'email';
/** The key of a WebDAV drive, as in /connect/app/webdav and the `webdav` source of its documents. */
export const WEBDAV_APP = 'webdav';

/** Where each connection's own calls live, by app key. */
const CONNECTION_PATHS = { [MAIL_APP]: '/connect/mail', [WEBDAV_APP]: '/connect/webdav' } as const;
/** The apps connected on this instance. */
export type ConnectionKey = keyof typeof CONNECTION_PATHS;

export const MAIL_SECURITIES = ['tls', 'start_tls', 'plain'] as const;
export type MailSecurity = (typeof MAIL_SECURITIES)[number];

// Connections are written as the server writes them (snake_case), unlike the app around them.
/** What every connection says of itself: whose it is, and how its syncs went. */
const connectionStateSchema = z.object({
  username: z.string(),
  /** Documents brought in so far. */
  imported: z.number().int().nonnegative(),
  connected_at: z.string(),
  last_synced_at: z.string().nullable(),
  /** Why the last sync failed; null when it worked. */
  last_error: z.string().nullable(),
  /** A server is reading it now. */
  syncing: z.boolean().default(false),
  /** When it is read next. */
  next_sync_at: z.string().nullish(),
});

const mailConnectionSchema = connectionStateSchema.extend({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(MAIL_SECURITIES),
  folders: z.array(z.string()),
});

const driveConnectionSchema = connectionStateSchema.extend({
  /** The folder watched. */
  url: z.string(),
});

const appSchema = z.object({
  key: z.string(),
  label: z.string(),
  category: z.string(),
  /** True when the app cannot be connected here. */
  disabled: z.boolean(),
  flag: z.string().nullable(),
  private: z.boolean(),
  /** Whether the stored credentials still work; null when not connected. */
  tokenValid: z.boolean().nullable(),
  connected: z.boolean(),
  /** What this server lacks, for a disabled app. */
  missing: z.string().nullable(),
  /** What works instead, for a disabled app. */
  instead: z.string().nullable(),
  /** The connected mailbox, for the email app. */
  mail: mailConnectionSchema.nullable(),
  /** The connected folder, for the webdav app (a server from before drives sends none). */
  drive: driveConnectionSchema.nullable().default(null),
});

export type ConnectionState = z.infer<typeof connectionStateSchema>;
export type MailConnection = z.infer<typeof mailConnectionSchema>;
export type DriveConnection = z.infer<typeof driveConnectionSchema>;
export type ConnectedApp = z.infer<typeof appSchema>;

/** Returns the app's connection, whichever kind it is, or null when it has none. */
export const connectionOf = (app: ConnectedApp | undefined): ConnectionState | null => app?.mail ?? app?.drive ?? null;

/** A mail account as the form sends it; without a port the server takes the security's usual one. */
export interface MailAccount {
  host: string;
  port?: number;
  security: MailSecurity;
  username: string;
  password: string;
}

/** A WebDAV folder and the account that reads it, as the form sends them. */
export interface WebdavAccount {
  url: string;
  username: string;
  password: string;
}

const webdavFileSchema = z.object({ name: z.string(), size: z.number().nonnegative() });
/** A file of the folder that Needl will import. */
export type WebdavFile = z.infer<typeof webdavFileSchema>;

export const connectedAppQueries = {
  all: () => ['connected-apps'] as const,
  lists: () => [...connectedAppQueries.all(), 'list'] as const,
  /** Every app, in the order the apps page lists them. Its failure is shown where it is used. */
  list: () =>
    queryOptions({
      queryKey: connectedAppQueries.lists(),
      queryFn: async ({ signal }) =>
        z.object({ apps: z.array(appSchema) }).parse(await api.get<unknown>('/connect/apps', { signal })).apps,
      staleTime: 15_000,
      meta: { toast: false },
    }),
  details: () => [...connectedAppQueries.all(), 'detail'] as const,
  /** One app with its state (404 for a key the server does not offer). */
  detail: (key: string) =>
    queryOptions({
      queryKey: [...connectedAppQueries.details(), key] as const,
      queryFn: async ({ signal }) =>
        appSchema.parse(await api.get<unknown>(`/connect/apps/${encodeURIComponent(key)}`, { signal })),
      staleTime: 15_000,
      meta: { toast: false },
    }),
};

/** Signs in to the mail server and returns its folders, INBOX first; nothing is recorded. */
export const checkMailAccount = async (account: MailAccount) =>
  z
    .object({ folders: z.array(z.string()) })
    .parse(await api.post<unknown>(`${CONNECTION_PATHS.email}/check`, { body: account })).folders;

/** Connects the mailbox (or replaces its details) to read `folders`; the first sync starts at once. */
export const connectMail = async (account: MailAccount, folders: string[]) =>
  appSchema.parse(await api.put<unknown>(CONNECTION_PATHS.email, { body: { account, folders } }));

/** Reads these folders of the connected mailbox from now on. */
export const chooseMailFolders = async (folders: string[]) =>
  appSchema.parse(await api.put<unknown>(`${CONNECTION_PATHS.email}/folders`, { body: { folders } }));

/** Signs in to the drive and returns the folder's files that Needl would import; nothing is recorded. */
export const checkWebdav = async (account: WebdavAccount) =>
  z
    .object({ files: z.array(webdavFileSchema) })
    .parse(await api.post<unknown>(`${CONNECTION_PATHS.webdav}/check`, { body: account })).files;

/** Connects the folder (or replaces its details); the first sync starts at once. */
export const connectWebdav = async (account: WebdavAccount) =>
  appSchema.parse(await api.put<unknown>(CONNECTION_PATHS.webdav, { body: account }));

/** Asks for the connection to be read now (202); the sync itself runs in the background. */
export const syncConnection = async (key: ConnectionKey) =>
  appSchema.parse(await api.post<unknown>(`${CONNECTION_PATHS[key]}/sync`, { body: {} }));

/** Disconnects the connection (204); the documents it brought in stay. */
export const disconnectConnection = (key: ConnectionKey) => api.delete<void>(CONNECTION_PATHS[key]);
