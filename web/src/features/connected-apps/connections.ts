/**
 * The connections made on this instance, mail over IMAP and a WebDAV drive: what each is called,
 * where it lives, and the words its page, card, dialog and toasts use. The components and hooks
 * the two share take one of these.
 */
import { MAIL_APP, WEBDAV_APP, type ConnectionKey } from './api/apps-api';
import { CONNECT_MAIL_PATH, CONNECT_WEBDAV_PATH, MAIL_DOCUMENTS_PATH, WEBDAV_DOCUMENTS_PATH } from './paths';

export interface Connection {
  key: ConnectionKey;
  /** The page's heading, and the card's while the server's label is not known. */
  name: string;
  /** What the connection brings in, for the page's own lines ("See your mail documents"). */
  noun: string;
  connectPath: string;
  documentsPath: string;
  /** The card's line on what the app does. */
  description: string;
  /** The card's link: before connecting, and once connected. */
  connectLabel: string;
  manageLabel: string;
  /** The summary's heading ("Your mailbox"). */
  summaryTitle: string;
  /** Said when the server no longer accepts the stored password. */
  passwordRefused: string;
  disconnectTitle: string;
  /** Toasts: connected, a sync asked for, disconnected. */
  connectedToast: string;
  syncToast: string;
  disconnectedToast: string;
  /** The card's test id (the end-to-end tests find the mail card by it). */
  testId: string;
}

export const MAIL: Connection = {
  key: MAIL_APP,
  name: 'Email (IMAP)',
  noun: 'mail',
  connectPath: CONNECT_MAIL_PATH,
  documentsPath: MAIL_DOCUMENTS_PATH,
  description:
    'Read the folders you choose from any mail server that speaks IMAP; each message and attachment becomes a document only you see.',
  connectLabel: 'Connect email',
  manageLabel: 'Manage email',
  summaryTitle: 'Your mailbox',
  passwordRefused: 'The mail server no longer accepts the password — reconnect',
  disconnectTitle: 'Disconnect your mailbox?',
  connectedToast: 'Mailbox connected. Its mail is on its way.',
  syncToast: 'Checking for new mail…',
  disconnectedToast: 'Mailbox disconnected. Its documents stay.',
  testId: 'mail-app',
};

export const WEBDAV: Connection = {
  key: WEBDAV_APP,
  name: 'WebDAV drive',
  noun: 'drive',
  connectPath: CONNECT_WEBDAV_PATH,
  documentsPath: WEBDAV_DOCUMENTS_PATH,
  description:
    'Watch one folder of a Nextcloud, ownCloud or NAS drive; each PDF, Word, Excel, PowerPoint, text or HTML file in it becomes a document only you see.',
  connectLabel: 'Connect a drive',
  manageLabel: 'Manage the drive',
  summaryTitle: 'Your drive',
  passwordRefused: 'The drive no longer accepts the password — reconnect',
  disconnectTitle: 'Disconnect your drive?',
  connectedToast: 'Drive connected. Its files are on their way.',
  syncToast: 'Checking the folder for new files…',
  disconnectedToast: 'Drive disconnected. Its documents stay.',
  testId: 'webdav-app',
};

/** The connections, in the order the apps page lists them (the server's order). */
export const CONNECTIONS: readonly Connection[] = [MAIL, WEBDAV];
