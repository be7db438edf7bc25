import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import { websiteQueries } from '../api/website-api';
import { useUnfollowWebsite } from '../hooks/use-unfollow-website';
import { WebsiteRow } from './website-row';

/** /connect/website/followed: the followed websites, each with its last error and unfollow. */
export function FollowedWebsitesPage() {
  const sites = useQuery(websiteQueries.followed());
  const unfollow = useUnfollowWebsite();
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
        <ListState
          query={sites}
          loadingLabel="Loading websites"
          errorTitle="Your websites could not be loaded"
          isEmpty={(list) => list.results.length === 0}
          emptyTitle="No websites yet"
          emptyHint={
            <p>
              <Link to="/connect/website">Follow a website</Link> and its new pages will appear in My Data.
            </p>
          }
        >
          {(list) => (
            <ul className="rss-list" aria-label="Followed websites">
              {list.results.map((site) => (
                <WebsiteRow
                  key={site.source_id}
                  site={site}
                  onUnfollow={() => unfollow.mutate(site.source_id)}
                  unfollowing={unfollow.isPending && unfollow.variables === site.source_id}
                />
              ))}
            </ul>
          )}
        </ListState>
      </section>
    </div>
  );
}
