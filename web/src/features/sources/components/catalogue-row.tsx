import { useId } from 'react';
import { CheckIcon } from '../../../components/ui/icons';
import type { PublicSource } from '../api/catalogue-api';

export interface CatalogueRowProps {
  source: PublicSource;
  selected: boolean;
  onToggleSelected: () => void;
  /** Follows (true) or unfollows (false) this source. */
  onFollow: (follow: boolean) => void;
  /** Whether a follow or unfollow of this source is on its way. */
  busy: boolean;
}

/**
 * One catalogue entry: a selection box while it is not followed, its title, group and key, what
 * following it brings (or that nothing is fetched for it here yet), and Follow, or Following with
 * Unfollow. The one button stays in place as it changes, so keyboard focus stays on it.
 */
export function CatalogueRow({ source, selected, onToggleSelected, onFollow, busy }: CatalogueRowProps) {
  const titleId = useId();
  const noteId = useId();
  const { title, following } = source;
  return (
    <li
      className="catalogue-row"
      aria-labelledby={titleId}
      data-testid="public-source"
      data-key={source.key}
      data-following={following}
    >
      {following ? (
        <span className="catalogue-row-select" />
      ) : (
        // The label widens what a finger can hit around the box.
        <label className="catalogue-row-select">
          <input type="checkbox" className="checkbox" aria-label={`Select ${title}`} checked={selected} onChange={onToggleSelected} />
        </label>
      )}
      <div className="catalogue-row-text">
        <span id={titleId} className="catalogue-row-title">
          {title}
        </span>
        <span className="catalogue-row-meta small muted">
          <span className="badge">{source.group ?? 'No group'}</span>
          <code className="catalogue-row-key">{source.key}</code>
        </span>
        <span id={noteId} className={`small ${source.fetchable ? 'muted' : 'catalogue-row-unfetched'}`}>
          {source.fetchable
            ? 'Fetched here: its new items arrive in My Data under Exchanges.'
            : 'Not fetched on this instance yet: following it brings in nothing until the operator adds its feed.'}
        </span>
      </div>
      <div className="catalogue-row-actions">
        <span className="following-mark" hidden={!following}>
          <CheckIcon size={16} aria-hidden="true" /> Following
        </span>
        <button
          type="button"
          className={following ? 'button button-quiet' : 'button button-primary'}
          aria-label={`${following ? 'Unfollow' : 'Follow'} ${title}`}
          aria-describedby={source.fetchable ? undefined : noteId}
          // Not `disabled`: a disabled button drops the keyboard focus it holds.
          aria-disabled={busy || undefined}
          onClick={() => !busy && onFollow(!following)}
        >
          {following ? 'Unfollow' : 'Follow'}
        </button>
      </div>
    </li>
  );
}
