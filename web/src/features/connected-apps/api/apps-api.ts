/**
 * The apps people bring their own documents in from (`GET /connect/apps`), and mail over IMAP,
 * the one connected here: checking an account (it lists the folders and records nothing),
 * connecting it, choosing folders, syncing now and disconnecting. Answers are parsed, so a server
 * that drifts from docs/api.md fails here rather than in a component.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';

/** The key of mail over IMAP, as in /connect/app/email and the `email` source of its documents. */
export const MAIL_APP = 'email';

export const MAIL_SECURITIES = ['tls', 'start_tls', 'plain'] as const;
export type MailSecurity = (typeof MAIL_SECURITIES)[number];

// The mailbox is written as the server writes it (snake_case), unlike the app around it.
const mailConnectionSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(MAIL_SECURITIES),
  username: z.string(),
  folders: z.array(z.string()),
  /** Documents brought in so far (messages and attachments). */
  imported: z.number().int().nonnegative(),
  connected_at: z.string(),
  last_synced_at: z.string().nullable(),
  /** Why the last sync failed; null when it worked. */
  last_error: z.string().nullable(),
  /** A server is reading the mailbox now. */
  syncing: z.boolean().default(false),
  /** When it is read next. */
  next_sync_at: z.string().nullish(),
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
  mail: mailConnectionSchema.nullable(),
});

export type MailConnection = z.infer<typeof mailConnectionSchema>;
export type ConnectedApp = z.infer<typeof appSchema>;

/** A mail account as the form sends it; without a port the server takes the security's usual one. */
export interface MailAccount {
  host: string;
  port?: number;
  security: MailSecurity;
  username: string;
  password: string;
}

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
  z.object({ folders: z.array(z.string()) }).parse(await api.post<unknown>('/connect/mail/check', { body: account })).folders;

/** Connects the mailbox (or replaces its details) to read `folders`; the first sync starts at once. */
export const connectMail = async (account: MailAccount, folders: string[]) =>
  appSchema.parse(await api.put<unknown>('/connect/mail', { body: { account, folders } }));

/** Reads these folders of the connected mailbox from now on. */
export const chooseMailFolders = async (folders: string[]) =>
  appSchema.parse(await api.put<unknown>('/connect/mail/folders', { body: { folders } }));

/** Asks for the mailbox to be read now (202); the sync itself runs in the background. */
export const syncMail = async () => appSchema.parse(await api.post<unknown>('/connect/mail/sync', { body: {} }));

/** Disconnects the mailbox (204); the documents it brought in stay. */
export const disconnectMail = () => api.delete<void>('/connect/mail');
