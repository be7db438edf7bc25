import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { topicQueries, type SuggestedFeed, type Topic } from '../api/topic-api';
import { useFollowSuggestedFeed } from '../hooks/use-follow-suggested-feed';
import { CheckIcon } from '../../../components/ui/icons';

/** One topic: its suggested feeds, each with Follow, or Following and Unfollow. */
export function TopicSection({ topic }: { topic: Topic }) {
  const headingId = useId();
  const feeds = useQuery(topicQueries.feeds(topic.key));
  const follow = useFollowSuggestedFeed(topic.key);
  const busy = (feed: SuggestedFeed) => follow.isPending && follow.variables?.feed.source_id === feed.source_id;

  return (
    <section className="card" aria-labelledby={headingId} data-testid="rss-topic" data-topic={topic.key}>
      <h2 id={headingId} className="card-title">
        {topic.title}
      </h2>
      {feeds.isPending && <Spinner label={`Loading ${topic.title} feeds`} />}
      {feeds.isError && (
        <p className="muted">
          These feeds could not be loaded.{' '}
          <button type="button" className="button button-quiet" onClick={() => void feeds.refetch()}>
            Try again
          </button>
        </p>
      )}
      {feeds.data && (
        <ul className="topic-feeds" aria-label={`${topic.title} feeds`}>
          {feeds.data.results.map((feed) => (
            <li key={feed.source_id} className="topic-feed" data-testid="suggested-feed" data-following={feed.following}>
              <div className="topic-feed-text">
                <span>{feed.label}</span>
                <span className="small muted topic-feed-url" title={feed.url}>
                  {feed.url}
                </span>
              </div>
              {feed.following ? (
                <>
                  <span className="following-mark">
                    <CheckIcon size={16} /> Following
                  </span>
                  <button
                    type="button"
                    className="button button-quiet"
                    aria-label={`Unfollow ${feed.label}`}
                    disabled={busy(feed)}
                    onClick={() => follow.mutate({ feed, follow: false })}
                  >
                    Unfollow
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="button button-primary"
                  aria-label={`Follow ${feed.label}`}
                  disabled={busy(feed)}
                  onClick={() => follow.mutate({ feed, follow: true })}
                >
                  Follow
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
