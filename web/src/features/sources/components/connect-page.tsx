import { Link } from 'react-router';

const LATER = [
  { title: 'Websites', text: 'Follow public websites and get their new pages in My Data.' },
  { title: 'Apps', text: 'Connect mail, chats and drives.' },
] as const;

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
        </li>
        {LATER.map((item) => (
          <li key={item.title} className="card">
            <h2 className="card-title">{item.title}</h2>
            <p className="muted">{item.text}</p>
            <span className="badge">Coming later</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
