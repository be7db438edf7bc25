import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { websiteQueries } from '../api/website-api';
import { useUnfollowWebsite } from '../hooks/use-unfollow-website';
import { WebsiteRow } from './website-row';

/** /connect/website/followed: the followed websites, each with its last error and unfollow. */
export function FollowedWebsitesPage() {
  const sites = useQuery(websiteQueries.followed());
  const unfollow = useUnfollowWebsite();

  let body;
  if (sites.isPending) body = <Spinner label="Loading websites" />;
  else if (sites.isError) {
    body = (
      <EmptyState title="Your websites could not be loaded">
        <button type="button" className="button" onClick={() => void sites.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  } else if (sites.data.results.length === 0) {
    body = (
      <EmptyState title="No websites yet">
        <p>
          <Link to="/connect/website">Follow a website</Link> and its new pages will appear in My Data.
        </p>
      </EmptyState>
    );
  } else {
    body = (
      <ul className="rss-list" aria-label="Followed websites">
        {sites.data.results.map((site) => (
          <WebsiteRow
            key={site.source_id}
            site={site}
            onUnfollow={() => unfollow.mutate(site.source_id)}
            unfollowing={unfollow.isPending && unfollow.variables === site.source_id}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="page-narrow stack-lg">
      <section className="card stack" aria-labelledby="websites-heading">
        <div className="rss-list-head">
          <h2 id="websites-heading" className="card-title">
            Followed websites
          </h2>
          <Link className="button" to="/connect/website">
            Follow a website
          </Link>
        </div>
        {body}
      </section>
    </div>
  );
}
