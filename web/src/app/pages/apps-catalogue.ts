/**
 * The apps the spec names that cannot be connected on this instance, each with what to do
 * instead today. Needl Drive takes PDF, Word, Excel, PowerPoint, text and HTML files, so an
 * export or a saved copy gets in that way; news-like sources come in as RSS feeds or websites;
 * a mailbox connects over IMAP. The server lists the apps it knows of (with what it lacks for
 * each and what works instead); this list covers the others, and gives each app its links.
 */
import { CONNECT_MAIL_PATH, MAIL_APP, type ConnectedApp } from '../../features/connected-apps';

export interface WayIn {
  to: string;
  label: string;
}

export const UPLOAD: WayIn = { to: '/apps/needldrive', label: 'Upload to Needl Drive' };
export const ADD_RSS: WayIn = { to: '/connect/rss', label: 'Add an RSS feed' };
export const FOLLOW_WEBSITE: WayIn = { to: '/connect/website', label: 'Follow a website' };
export const CONNECT_MAIL: WayIn = { to: CONNECT_MAIL_PATH, label: 'Connect as Email (IMAP)' };

export interface UnconnectedApp {
  /** The app's source key (the spec's catalogue), as in /apps/{key}. */
  key: string;
  name: string;
  /** What the app holds, as My Data's tabs name it. */
  kind: string;
  /** What this server lacks to connect it, when the server said. */
  missing?: string;
  /** How its documents get into Needl today. */
  instead: string;
  ways: WayIn[];
}

export const UNCONNECTED_APPS: readonly UnconnectedApp[] = [
  {
    key: 'gmail',
    name: 'Gmail',
    kind: 'Emails',
    instead: 'Print an email to PDF (or save it as HTML) and upload it to Needl Drive.',
    ways: [UPLOAD],
  },
  {
    key: 'outlook',
    name: 'Outlook',
    kind: 'Emails',
    instead: 'Save an email as PDF or HTML and upload it to Needl Drive.',
    ways: [UPLOAD],
  },
  {
    key: 'whatsapp',
    name: 'WhatsApp',
    kind: 'Chats',
    instead: 'Export the chat (Export chat, without media) and upload the .txt file to Needl Drive.',
    ways: [UPLOAD],
  },
  {
    key: 'telegram',
    name: 'Telegram',
    kind: 'Chats',
    instead: 'Export the chat from Telegram Desktop (Export chat history, as HTML) and upload messages.html to Needl Drive.',
    ways: [UPLOAD],
  },
  {
    key: 'googledrive',
    name: 'Google Drive',
    kind: 'Drives',
    instead: 'Download the files (Google Docs as Word or PDF) and upload them to Needl Drive.',
    ways: [UPLOAD],
  },
  {
    key: 'onedrive',
    name: 'OneDrive',
    kind: 'Drives',
    instead: 'Download the files and upload them to Needl Drive.',
    ways: [UPLOAD],
  },
  {
    key: 'clipped_reports',
    name: 'Web clipper',
    kind: 'Web Clips',
    instead: 'Follow the website to get its new pages, or save a page as PDF or HTML and upload it to Needl Drive.',
    ways: [FOLLOW_WEBSITE, UPLOAD],
  },
  {
    key: 'twitter',
    name: 'X (Twitter)',
    kind: 'Social Media',
    instead: 'Follow the website or RSS feed of whoever you read there, or save a post as PDF and upload it.',
    ways: [FOLLOW_WEBSITE, ADD_RSS],
  },
  {
    key: 'linkedin',
    name: 'LinkedIn',
    kind: 'Social Media',
    instead: 'Follow the company’s website or news page, or save a post as PDF and upload it to Needl Drive.',
    ways: [FOLLOW_WEBSITE, UPLOAD],
  },
];

/** Returns the app /apps/{key} names when it is one that cannot be connected here. */
export const unconnectedApp = (key: string): UnconnectedApp | undefined => UNCONNECTED_APPS.find((app) => app.key === key);

/**
 * Returns the apps that cannot be connected here: those the server lists as disabled, in its
 * order and with its words, then the others of this list the server does not know of. A mailbox
 * app is led to Email (IMAP) while that works here. Without the server's list, this list alone.
 */
export function unconnectedApps(server: readonly ConnectedApp[] | undefined): UnconnectedApp[] {
  if (!server) return [...UNCONNECTED_APPS];
  const mailWorks = server.some((app) => app.key === MAIL_APP && !app.disabled);
  const listed = server
    .filter((app) => app.disabled)
    .map((app): UnconnectedApp => {
      const known = unconnectedApp(app.key);
      const ways = known?.ways ?? [UPLOAD];
      return {
        key: app.key,
        name: app.label,
        kind: app.category,
        ...(app.missing ? { missing: app.missing } : {}),
        instead: app.instead ?? known?.instead ?? 'Upload its files to Needl Drive.',
        ways: mailWorks && app.category === 'Emails' ? [CONNECT_MAIL, ...ways] : ways,
      };
    });
  const known = new Set(server.map((app) => app.key));
  return [...listed, ...UNCONNECTED_APPS.filter((app) => !known.has(app.key))];
}
