import { formatRelative } from '../../../lib/format';
import type { Website } from '../api/website-api';

export interface WebsiteRowProps {
  site: Website;
  onUnfollow: () => void;
  unfollowing: boolean;
  now?: Date;
}

/** One followed website: its name and address, how it is read, its last fetch, and unfollow. */
export function WebsiteRow({ site, onUnfollow, unfollowing, now }: WebsiteRowProps) {
  return (
    <li className="rss-row website-row" data-testid="website" data-source-id={site.source_id}>
      <div className="rss-row-text">
        <span className="rss-row-label">{site.label}</span>
        <a className="small muted rss-row-url" href={site.url} target="_blank" rel="noopener noreferrer">
          {site.url}
        </a>
        <span className="small muted">
          {site.last_fetched_at ? `Last read ${formatRelative(site.last_fetched_at, now)}` : 'Not read yet'}
          {site.feed_url && ` · feed ${site.feed_url}`}
        </span>
        {site.last_error && <span className="small website-error">Last fetch failed: {site.last_error}</span>}
      </div>
      <button
        type="button"
        className="button button-quiet"
        aria-label={`Unfollow ${site.label}`}
        onClick={onUnfollow}
        disabled={unfollowing}
      >
        Unfollow
      </button>
    </li>
  );
}
