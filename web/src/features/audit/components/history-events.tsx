import type { StoredEvent } from '../api/audit-api';
import { actorName, readableEventType, subjectLabel } from '../audit-format';
import { When } from './when';

export interface HistoryEventsProps {
  events: StoredEvent[];
  /** The cursor of the event the state is shown after, if one is picked. */
  selected: string | null;
  onPick: (cursor: string) => void;
  label: string;
}

/** An aggregate's events in order, each a button that shows the state right after it. */
export function HistoryEvents({ events, selected, onPick, label }: HistoryEventsProps) {
  return (
    <ol className="audit-history" aria-label={label}>
      {events.map((event) => {
        const subject = subjectLabel(event);
        const current = event.cursor === selected;
        return (
          <li key={event.cursor} className="audit-history-item" data-current={current || undefined}>
            <button type="button" className="audit-history-pick" aria-pressed={current} onClick={() => onPick(event.cursor)}>
              <span className="audit-history-what">
                {event.sequence}. {readableEventType(event.event_type)}
                {subject && <span className="audit-subject"> · {subject}</span>}
              </span>
              <span className="small muted">
                {actorName(event)}, <When instant={event.recorded_at} />
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
