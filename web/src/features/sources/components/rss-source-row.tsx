import { FeedStatus } from '../../../lib/feed-status';
import type { Priority, RssSource } from '../api/source-api';
import { PrioritySelect } from './priority-select';

export interface RssSourceRowProps {
  source: RssSource;
  selected: boolean;
  onToggleSelected: () => void;
  onPriority: (priority: Priority) => void;
  onUnfollow: () => void;
  unfollowing: boolean;
}

/**
 * One followed feed: its selection box, label and address, how its reading goes (why it failed
 * and when it was tried, with Retry, while it fails), priority and unfollow.
 */
export function RssSourceRow({ source, selected, onToggleSelected, onPriority, onUnfollow, unfollowing }: RssSourceRowProps) {
  return (
    <li className="rss-row" data-testid="rss-source" data-source-id={source.source_id}>
      <input
        type="checkbox"
        className="checkbox"
        aria-label={`Select ${source.label}`}
        checked={selected}
        onChange={onToggleSelected}
      />
      <div className="rss-row-text">
        <span className="rss-row-label">{source.label}</span>
        <a className="small muted rss-row-url" href={source.link_to_crawl} target="_blank" rel="noopener noreferrer">
          {source.link_to_crawl}
        </a>
        <FeedStatus source={source} />
      </div>
      <PrioritySelect label={`Priority of ${source.label}`} value={source.priority} onChange={onPriority} />
      <button
        type="button"
        className="button button-quiet"
        aria-label={`Unfollow ${source.label}`}
        onClick={onUnfollow}
        disabled={unfollowing}
      >
        Unfollow
      </button>
    </li>
  );
}
