import { useId } from 'react';
import { FOLLOW_LIMIT_TOOLTIP } from '../messages';

export interface FollowSelectedBarProps {
  count: number;
  canApply: boolean;
  overLimit: boolean;
  pending: boolean;
  onFollow: () => void;
  onClear: () => void;
}

/** Follows every selected catalogue entry at once; over the server's limit it says why it cannot. */
export function FollowSelectedBar({ count, canApply, overLimit, pending, onFollow, onClear }: FollowSelectedBarProps) {
  const tooltipId = useId();
  return (
    <div className="bulk-bar" role="group" aria-label="Selected sources">
      <span className="muted">{count} selected</span>
      <span className="tooltip-anchor" title={overLimit ? FOLLOW_LIMIT_TOOLTIP : undefined}>
        <button
          type="button"
          className="button button-primary"
          disabled={!canApply || pending}
          aria-describedby={overLimit ? tooltipId : undefined}
          onClick={onFollow}
        >
          Follow selected
        </button>
        {overLimit && (
          <span id={tooltipId} role="tooltip" className="tooltip">
            {FOLLOW_LIMIT_TOOLTIP}
          </span>
        )}
      </span>
      <button type="button" className="button button-quiet" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}
