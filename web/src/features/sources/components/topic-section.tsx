import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ListState } from '../../../components/ui/list-state';
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
      <ListState query={feeds} compact loadingLabel={`Loading ${topic.title} feeds`} errorTitle="These feeds could not be loaded">
        {(list) => (
          <ul className="topic-feeds" aria-label={`${topic.title} feeds`}>
            {list.results.map((feed) => (
              <TopicFeed key={feed.source_id} feed={feed} busy={busy(feed)} onFollow={(follows) => follow.mutate({ feed, follow: follows })} />
            ))}
          </ul>
        )}
      </ListState>
    </section>
  );
}

interface TopicFeedProps {
  feed: SuggestedFeed;
  /** Whether a follow or unfollow of this feed is on its way. */
  busy: boolean;
  onFollow: (follow: boolean) => void;
}

/** A suggested feed: its name and address, with Follow, or Following and Unfollow. */
function TopicFeed({ feed, busy, onFollow }: TopicFeedProps) {
  return (
    <li className="topic-feed" data-testid="suggested-feed" data-following={feed.following}>
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
          <button type="button" className="button button-quiet" aria-label={`Unfollow ${feed.label}`} disabled={busy} onClick={() => onFollow(false)}>
            Unfollow
          </button>
        </>
      ) : (
        <button type="button" className="button button-primary" aria-label={`Follow ${feed.label}`} disabled={busy} onClick={() => onFollow(true)}>
          Follow
        </button>
      )}
    </li>
  );
}
