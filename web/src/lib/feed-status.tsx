/**
 * How a followed feed's reading goes, where feeds are listed (the RSS page, My Data): waiting
 * for its first try, trying again, or failing with its error, when it was last tried and when it
 * is tried next, with Retry and Remove.
 */
import { formatRelative } from './format';
import { fetchPending, type RssSource } from './queries/source-queries';
import { useRetryFeed } from './queries/use-feed-actions';

/** Returns "in 5 mins", "in 2 hours" or "in a moment" for a time ahead. */
export function formatAhead(date: string, now: Date = new Date()): string {
  const seconds = Math.round((new Date(date).getTime() - now.getTime()) / 1000);
  if (seconds < 60) return 'in a moment';
  const mins = Math.round(seconds / 60);
  if (mins < 60) return `in ${mins} ${mins === 1 ? 'min' : 'mins'}`;
  const hours = Math.round(mins / 60);
  return `in ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

export interface FeedStatusProps {
  source: RssSource;
  /** Removes the feed; without it there is no Remove button (the row has its own). */
  onRemove?: () => void;
  removing?: boolean;
}

/** The state of one feed's reading; nothing while it reads well. */
export function FeedStatus({ source, onRemove, removing = false }: FeedStatusProps) {
  const retry = useRetryFeed();
  const pending = fetchPending(source) || (retry.isPending && retry.variables === source.source_id);
  if (pending && source.last_attempt_at) {
    return (
      <p className="small muted feed-status" role="status">
        Trying {source.label} again…
      </p>
    );
  }
  if (!source.last_attempt_at) {
    return (
      <p className="small muted feed-status" role="status">
        Not fetched yet: the first items arrive within a minute or so.
      </p>
    );
  }
  if (!source.last_error) return null;
  return (
    <div className="feed-status feed-status-failed" data-testid="feed-problem">
      <p className="small website-error">
        Could not be fetched: {source.last_error}
      </p>
      <p className="small muted">
        Last tried {formatRelative(source.last_attempt_at)}
        {source.next_attempt_at && `; next try ${formatAhead(source.next_attempt_at)}`}
        {source.last_fetched_at ? `; last read ${formatRelative(source.last_fetched_at)}` : '; never read'}.
      </p>
      <p className="feed-status-actions">
        <button
          type="button"
          className="button button-small"
          aria-label={`Retry ${source.label} now`}
          onClick={() => retry.mutate(source.source_id)}
          disabled={retry.isPending}
        >
          Retry now
        </button>
        {onRemove && (
          <button
            type="button"
            className="button button-quiet button-small"
            aria-label={`Remove ${source.label}`}
            onClick={onRemove}
            disabled={removing}
          >
            Remove
          </button>
        )}
      </p>
    </div>
  );
}
