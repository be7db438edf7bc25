import { useQuery } from '@tanstack/react-query';
import { FeedStatus } from '../../../lib/feed-status';
import { sourceQueries, type RssSource } from '../../../lib/queries/source-queries';
import { useUnfollowFeed } from '../../../lib/queries/use-feed-actions';

/** The followed feeds whose last fetch failed. */
export const failingFeeds = (sources: RssSource[] | undefined) => (sources ?? []).filter((s) => s.last_error);

/**
 * My Data's feeds that cannot be read, above the feed items: each with its error, when it was
 * last tried and next will be, Retry and Remove. Nothing while every feed reads.
 */
export function FeedProblems() {
  const sources = useQuery(sourceQueries.rss());
  const unfollow = useUnfollowFeed();
  const failing = failingFeeds(sources.data?.results);
  if (failing.length === 0) return null;
  return (
    <section className="card stack feed-problems" aria-labelledby="feed-problems-heading">
      <h2 id="feed-problems-heading" className="card-title">
        {failing.length === 1 ? 'A feed cannot be fetched' : `${failing.length} feeds cannot be fetched`}
      </h2>
      <ul className="feed-problem-list">
        {failing.map((source) => (
          <li key={source.source_id} data-source-id={source.source_id}>
            <strong>{source.label}</strong> <span className="small muted">{source.link_to_crawl}</span>
            <FeedStatus
              source={source}
              onRemove={() => unfollow.mutate(source.source_id)}
              removing={unfollow.isPending && unfollow.variables === source.source_id}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
