import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { formatRelative } from '../../../lib/format';
import { myDataSuffix } from '../../../lib/landing-route';
import type { SubCategory } from '../../../lib/queries/library-queries';
import { fetchPending, sourceQueries } from '../../../lib/queries/source-queries';
import { useMyDataTabs } from '../hooks/use-my-data-tabs';
import { DocumentList } from './document-list';
import { DocumentSkeleton } from './document-skeleton';
import { failingFeeds, FeedProblems } from './feed-problems';
import { MyDataTabs } from './my-data-tabs';
import { isUnconnectedTab, UnconnectedTab } from './unconnected-tab';

/** /feeds/home and its sub-categories: the tabs above the page of the one chosen. */
export function MyDataLayout() {
  return (
    <div className="page-narrow my-data">
      <MyDataTabs />
      <Outlet />
    </div>
  );
}

/**
 * /feeds/home: lands on the first connected sub-category (keeping the address's parameters);
 * with none connected, says how to connect a source or upload files. If the category index
 * cannot be had, every document is listed, as before there were tabs.
 */
export function MyDataLanding() {
  const { categories, tabs } = useMyDataTabs();
  const { search } = useLocation();
  if (categories.isPending) return <DocumentSkeleton />;
  if (categories.isError) return <DocumentList source={null} />;
  const suffix = myDataSuffix(tabs);
  if (suffix) return <Navigate to={{ pathname: `/feeds/home${suffix}`, search }} replace />;
  return (
    <EmptyState title="Nothing in My Data yet">
      <p>Connect a source, such as an RSS feed or a website, or upload your own files: they all show up here.</p>
      <p className="empty-state-actions">
        <Link className="button button-primary" to="/connect">
          Connect a source
        </Link>
        <Link className="button" to="/apps/needldrive">
          Upload files
        </Link>
      </p>
    </EmptyState>
  );
}

/** /feeds/home/{subCategory}: the documents of one of My Data's sub-categories. */
export function SubCategoryPage() {
  const { suffix = '' } = useParams();
  const { categories, tabs } = useMyDataTabs();
  const tab = tabs.find((t) => t.key === suffix);
  if (categories.isPending) return <DocumentSkeleton />;
  if (categories.isSuccess && !tab) {
    return (
      <EmptyState title="My Data has no such section">
        <p>
          <Link to="/feeds/home">Back to My Data</Link>
        </p>
      </EmptyState>
    );
  }
  const list = <DocumentList key={suffix} source={null} subCategory={suffix} empty={<SubCategoryEmpty tab={tab} />} />;
  if (suffix !== 'rss_news') return list;
  return (
    <div className="stack">
      <FeedProblems />
      {list}
    </div>
  );
}

/**
 * What My Data says of followed feeds with no items: being fetched only while a fetch is due and
 * not yet recorded; that they cannot be fetched (the reasons are listed above it); or when they
 * were read, and that they had nothing yet.
 */
function FeedsEmpty() {
  const sources = useQuery(sourceQueries.rss());
  const feeds = sources.data?.results ?? [];
  const failing = failingFeeds(feeds);
  const read = feeds.map((s) => s.last_fetched_at).filter((t): t is string => Boolean(t)).sort();
  let title = 'No items yet';
  let text = 'New items show up here as your feeds and websites publish them.';
  if (feeds.some((s) => !s.last_attempt_at || fetchPending(s))) {
    text = 'Your feeds are being fetched; new items show up here as they arrive.';
  } else if (feeds.length > 0 && failing.length === feeds.length) {
    title = feeds.length === 1 ? 'Your feed could not be fetched' : 'Your feeds could not be fetched';
    text = 'See why above: retry once the address works, or remove the feed.';
  } else if (read.length > 0) {
    text = `Your feeds were read ${formatRelative(read[read.length - 1])} and had no items; new items show up here as they are published.`;
  }
  return (
    <EmptyState title={title}>
      <p>{text}</p>
      <FeedLinks />
    </EmptyState>
  );
}

function FeedLinks() {
  return (
    <p className="empty-state-actions">
      <Link to="/connect/rss">Add an RSS feed</Link>
      <Link to="/connect/rssTopics">Browse suggested feeds</Link>
      <Link to="/connect/website">Follow a website</Link>
    </p>
  );
}

/** What an empty sub-category says: how to fill it, or that nothing fills it here and what to do instead. */
function SubCategoryEmpty({ tab }: { tab: SubCategory | undefined }) {
  // Exchanges are connected once the user follows a public source: then they only wait for items.
  if (tab && !tab.connected && isUnconnectedTab(tab.key)) return <UnconnectedTab tabKey={tab.key} />;
  if (tab?.key === 'rss_news') {
    if (tab.connected) return <FeedsEmpty />;
    return (
      <EmptyState title="No feeds or websites followed yet">
        <p>Follow an RSS feed or a website and its items show up here.</p>
        <FeedLinks />
      </EmptyState>
    );
  }
  if (tab?.key === 'notes') {
    // Notes are counted here but live in Notebooks, where they are written and read.
    return (
      <EmptyState title={tab.count > 0 ? 'Your notes are in Notebooks' : 'No notes yet'}>
        <p>
          <Link to="/notebooks">Open Notebooks</Link>
        </p>
      </EmptyState>
    );
  }
  return (
    <EmptyState title={`Nothing in ${tab?.label ?? 'this section'} yet`}>
      <p>
        New documents of this kind show up here as they arrive. <Link to="/connect">See what you can connect</Link>
      </p>
    </EmptyState>
  );
}
