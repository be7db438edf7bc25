import { Link } from 'react-router';
import { AddRssForm } from './add-rss-form';
import { RssSourceList } from './rss-source-list';

/** /connect/rss: add a feed and manage the followed ones. */
export function ConnectRssPage() {
  return (
    <div className="page-narrow stack-lg">
      <AddRssForm />
      <p className="muted">
        Not sure what to follow? <Link to="/connect/rssTopics">Browse suggested feeds by topic</Link>
      </p>
      <RssSourceList />
    </div>
  );
}
