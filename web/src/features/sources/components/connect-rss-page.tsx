import { AddRssForm } from './add-rss-form';
import { RssSourceList } from './rss-source-list';

/** /connect/rss: add a feed and manage the followed ones. */
export function ConnectRssPage() {
  return (
    <div className="page-narrow stack-lg">
      <AddRssForm />
      <RssSourceList />
    </div>
  );
}
