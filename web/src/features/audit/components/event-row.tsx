import { useId, useState } from 'react';
import { ChevronDownIcon, ChevronRightIcon } from '../../../components/ui/icons';
import type { StoredEvent } from '../api/audit-api';
import type { AuditFilters } from '../audit-filters';
import { actorName, exactTime, readableAggregateType, readableEventType, subjectLabel } from '../audit-format';
import { EventDetail } from './event-detail';
import { When } from './when';

export interface EventRowProps {
  event: StoredEvent;
  onNarrow: (filters: AuditFilters) => void;
}

/**
 * One event as a table row: when, who, what and on what, in words; the button at its end opens
 * the full detail in the row below it.
 */
export function EventRow({ event, onNarrow }: EventRowProps) {
  const [open, setOpen] = useState(false);
  const detailId = useId();
  const what = readableEventType(event.event_type);
  const subject = subjectLabel(event);
  const actor = actorName(event);
  return (
    <>
      <tr className="audit-row" data-open={open || undefined}>
        <td data-label="When">
          <When instant={event.recorded_at} />
        </td>
        <td data-label="Who">{actor}</td>
        <td data-label="What">
          <span title={event.event_type}>{what}</span>
        </td>
        <td data-label="On">
          {readableAggregateType(event.aggregate_type)}
          {subject && <span className="audit-subject"> · {subject}</span>}
        </td>
        <td className="audit-row-toggle">
          <button
            type="button"
            className="button button-quiet button-small"
            aria-label={`Details: ${what} by ${actor}, ${exactTime(event.recorded_at)}`}
            aria-expanded={open}
            aria-controls={detailId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <ChevronDownIcon aria-hidden="true" size={16} /> : <ChevronRightIcon aria-hidden="true" size={16} />}
            Details
          </button>
        </td>
      </tr>
      <tr className="audit-detail-row" id={detailId} hidden={!open}>
        <td colSpan={5}>{open && <EventDetail event={event} onNarrow={onNarrow} />}</td>
      </tr>
    </>
  );
}
