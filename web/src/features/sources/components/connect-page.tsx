import { Link } from 'react-router';

/** /connect: the ways to bring sources into Needl. */
export function ConnectPage() {
  return (
    <div className="page-narrow stack">
      <ul className="connect-grid" aria-label="Ways to connect">
        <li className="card">
          <h2 className="card-title">RSS feeds</h2>
          <p className="muted">Follow any RSS or Atom feed; its items arrive in My Data.</p>
          <Link className="button button-primary" to="/connect/rss">
            Add RSS
          </Link>
          <Link className="small" to="/connect/rssTopics">
            Browse suggested feeds
          </Link>
        </li>
        <li className="card">
          <h2 className="card-title">Public sources</h2>
          <p className="muted">Exchange filings, annual reports, conference calls and more from this instance’s catalogue; what it fetches arrives in My Data under Exchanges.</p>
          <Link className="button button-primary" to="/connect/public">
            Browse public sources
          </Link>
          <Link className="small" to="/connect/edgar">
            Follow a US company's SEC filings
          </Link>
        </li>
        <li className="card">
          <h2 className="card-title">Websites</h2>
          <p className="muted">Follow public websites and get their new pages in My Data.</p>
          <Link className="button button-primary" to="/connect/website">
            Follow a website
          </Link>
          <Link className="small" to="/connect/website/followed">
            Followed websites
          </Link>
        </li>
        <li className="card">
          <h2 className="card-title">Files</h2>
          <p className="muted">Upload PDFs and documents to Needl Drive to read and search them.</p>
          <Link className="button button-primary" to="/apps/needldrive">
            Open Needl Drive
          </Link>
        </li>
        <li className="card">
          <h2 className="card-title">Apps</h2>
          <p className="muted">Mail, chats and cloud drives cannot be connected on this instance; their exports and files come in through Needl Drive.</p>
          <Link className="button" to="/apps">
            See apps
          </Link>
        </li>
      </ul>
    </div>
  );
}
