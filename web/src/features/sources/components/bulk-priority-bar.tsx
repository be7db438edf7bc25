import { useId, useState } from 'react';
import type { Priority } from '../api/source-api';
import { BULK_LIMIT_TOOLTIP } from '../messages';
import { PrioritySelect } from './priority-select';

export interface BulkPriorityBarProps {
  count: number;
  canApply: boolean;
  overLimit: boolean;
  pending: boolean;
  onApply: (priority: Priority) => void;
}

/**
 * Sets one priority on every selected source. Over the limit the button is disabled and the
 * spec's tooltip explains why (also tied to the button for screen readers).
 */
export function BulkPriorityBar({ count, canApply, overLimit, pending, onApply }: BulkPriorityBarProps) {
  const [priority, setPriority] = useState<Priority | ''>('');
  const tooltipId = useId();
  return (
    <div className="bulk-bar" role="group" aria-label="Bulk priority">
      <span className="muted">{count} selected</span>
      <PrioritySelect label="Priority for selected sources" value={priority} onChange={setPriority} placeholder="Choose priority" />
      <span className="tooltip-anchor" title={overLimit ? BULK_LIMIT_TOOLTIP : undefined}>
        <button
          type="button"
          className="button"
          disabled={!canApply || !priority || pending}
          aria-describedby={overLimit ? tooltipId : undefined}
          onClick={() => priority && onApply(priority)}
        >
          Set priority
        </button>
        {overLimit && (
          <span id={tooltipId} role="tooltip" className="tooltip">
            {BULK_LIMIT_TOOLTIP}
          </span>
        )}
      </span>
    </div>
  );
}
