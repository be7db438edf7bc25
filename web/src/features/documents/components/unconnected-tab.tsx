import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';

interface WayIn {
  to: string;
  label: string;
}

const DRIVE: WayIn = { to: '/apps/needldrive', label: 'Upload to Needl Drive' };
const RSS: WayIn = { to: '/connect/rss', label: 'Add an RSS feed' };
const WEBSITE: WayIn = { to: '/connect/website', label: 'Follow a website' };
const APPS: WayIn = { to: '/apps', label: 'See which apps work here' };
const PUBLIC: WayIn = { to: '/connect/public', label: 'Browse public sources' };
const EDGAR: WayIn = { to: '/connect/edgar', label: "Follow a US company's SEC filings" };

interface TabHelp {
  title: string;
  text: string;
  ways: WayIn[];
}

/**
 * My Data's tabs that no connector fills on this instance (and Exchanges, until a public source
 * is followed): what is not connected, and the way such documents get in today (Needl Drive takes
 * PDF, Word, Excel, PowerPoint, text and HTML).
 */
const UNCONNECTED_TABS: Record<string, TabHelp> = {
  exchanges: {
    title: 'No exchange sources followed yet',
    text: 'Exchange filings, annual reports and conference calls come in from the public sources this instance offers, once you follow them; a US company’s SEC filings (10-K, 10-Q, 8-K, …) come in once you follow the company. You can also follow an exchange’s or a company’s announcements as an RSS feed, or upload the filings you have as PDFs to Needl Drive.',
    ways: [PUBLIC, EDGAR, RSS, DRIVE],
  },
  webclips: {
    title: 'The web clipper is not connected on this instance',
    text: 'Pages cannot be clipped from the browser here. Follow the website to get its new pages, or save a page as PDF or HTML and upload it to Needl Drive.',
    ways: [WEBSITE, DRIVE],
  },
  chats: {
    title: 'Chat apps are not connected on this instance',
    text: 'WhatsApp, Telegram and other chats cannot be connected here. Export the chat (WhatsApp: Export chat, a .txt file; Telegram Desktop: Export chat history, as HTML) and upload the file to Needl Drive.',
    ways: [DRIVE, APPS],
  },
  emails: {
    title: 'Email is not connected on this instance',
    text: 'Gmail, Outlook and other mailboxes cannot be connected here. Print an email to PDF, or save it as HTML, and upload it to Needl Drive; a newsletter often has a website or RSS feed to follow instead.',
    ways: [DRIVE, RSS, APPS],
  },
  socialmedia: {
    title: 'Social networks are not connected on this instance',
    text: 'X, LinkedIn and other networks cannot be connected here. Follow the website or RSS feed of whoever you read there, or save a post as PDF and upload it to Needl Drive.',
    ways: [WEBSITE, RSS, DRIVE],
  },
};

/** Returns whether My Data's `key` tab is one no connector fills here. */
export const isUnconnectedTab = (key: string | undefined): boolean => Boolean(key && key in UNCONNECTED_TABS);

/** An empty tab no connector fills: says so plainly, and links the ways in that work. */
export function UnconnectedTab({ tabKey }: { tabKey: string }) {
  const help = UNCONNECTED_TABS[tabKey];
  if (!help) return null;
  return (
    <EmptyState title={help.title}>
      <p>{help.text}</p>
      <p className="empty-state-actions">
        {help.ways.map((way) => (
          <Link key={way.to} to={way.to}>
            {way.label}
          </Link>
        ))}
      </p>
    </EmptyState>
  );
}
