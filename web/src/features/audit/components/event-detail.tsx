import { Link } from 'react-router';
import type { StoredEvent } from '../api/audit-api';
import type { AuditFilters } from '../audit-filters';
import { actorName, aggregateNoun, exactTime, SYSTEM_USER } from '../audit-format';
import { historyHref } from '../audit-paths';
import { JsonView } from './json-view';

export interface EventDetailProps {
  event: StoredEvent;
  /** Narrows the timeline to what this event shares with others (its request, user or aggregate). */
  onNarrow: (filters: AuditFilters) => void;
}

/** One event in full: its metadata, ids included, the ways to follow it, and its payload. */
export function EventDetail({ event, onNarrow }: EventDetailProps) {
  const { metadata } = event;
  const noun = aggregateNoun(event.aggregate_type);
  const userId = metadata.user_id;
  return (
    <div className="audit-detail">
      <dl className="audit-facts">
        <dt>Recorded</dt>
        <dd>{exactTime(event.recorded_at)}</dd>
        {metadata.time && metadata.time !== event.recorded_at && (
          <>
            <dt>Accepted</dt>
            <dd>{exactTime(metadata.time)}</dd>
          </>
        )}
        <dt>User</dt>
        <dd>
          {actorName(event)}
          {userId && userId !== SYSTEM_USER && <code className="audit-id"> {userId}</code>}
        </dd>
        <dt>App</dt>
        <dd>{metadata.app_type || '—'}</dd>
        <dt>From page</dt>
        <dd>{metadata.request_origin ? <code>{metadata.request_origin}</code> : '—'}</dd>
        <dt>Request</dt>
        <dd>{metadata.request_id ? <code className="audit-id">{metadata.request_id}</code> : '—'}</dd>
        <dt>{readableCapital(noun)}</dt>
        <dd>
          <code className="audit-id">{event.aggregate_id}</code>, event {event.sequence} (version {String(event.event_version)})
        </dd>
        <dt>Position</dt>
        <dd>
          <code>{event.cursor}</code>
        </dd>
      </dl>
      <div className="audit-detail-actions">
        <Link className="button button-small" to={historyHref(event.aggregate_type, event.aggregate_id, { at: event.cursor })}>
          History of this {noun}
        </Link>
        {metadata.request_id && (
          <button type="button" className="button button-quiet button-small" onClick={() => onNarrow({ request_id: metadata.request_id ?? undefined })}>
            Only this request
          </button>
        )}
        {userId && (
          <button type="button" className="button button-quiet button-small" onClick={() => onNarrow({ user: userId })}>
            Only this user
          </button>
        )}
        <button
          type="button"
          className="button button-quiet button-small"
          onClick={() => onNarrow({ aggregate_type: event.aggregate_type, aggregate_id: event.aggregate_id })}
        >
          Only this {noun}
        </button>
      </div>
      <h4 className="audit-detail-heading">Payload</h4>
      <JsonView value={event.payload} label="Payload" />
    </div>
  );
}

const readableCapital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
