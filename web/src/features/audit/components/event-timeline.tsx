import { ListState } from '../../../components/ui/list-state';
import { serverMessage } from '../../../lib/api-client';
import { Spinner } from '../../../components/ui/spinner';
import { isFiltered, type AuditFilters } from '../audit-filters';
import type { AuditTimeline } from '../hooks/use-audit-timeline';
import { EventRow } from './event-row';

export interface EventTimelineProps {
  timeline: AuditTimeline;
  filters: AuditFilters;
  onNarrow: (filters: AuditFilters) => void;
  onClear: () => void;
}

/**
 * The events newest first, as an auditor opening the log wants them: Load older goes back in
 * time at the end, and the live banner above offers what happened since, so rows already read
 * move only when asked to.
 */
export function EventTimeline({ timeline, filters, onNarrow, onClear }: EventTimelineProps) {
  const { pages, events } = timeline;
  const filtered = isFiltered(filters);
  return (
    <ListState
      // A page after the first that fails keeps the events shown, with its own message below them.
      query={{ ...pages, isError: pages.isError && !pages.data, data: pages.data ? events : undefined }}
      loadingLabel="Loading events"
      errorTitle="The audit log could not be loaded"
      errorHint="Check your connection and try again."
      isEmpty={(list) => list.length === 0}
      empty={<EmptyTimeline filtered={filtered} onClear={onClear} />}
    >
      {(list) => (
        <div className="audit-timeline">
          <NewerBanner timeline={timeline} />
          <table className="table audit-table">
            <caption className="visually-hidden">Audit events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">On</th>
                <th scope="col">
                  <span className="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((event) => (
                <EventRow key={event.cursor} event={event} onNarrow={onNarrow} />
              ))}
            </tbody>
          </table>
          <div className="audit-timeline-end">
            {pages.isFetchingNextPage ? (
              <Spinner label="Loading more events" showLabel />
            ) : pages.hasNextPage ? (
              <button type="button" className="button" onClick={() => void pages.fetchNextPage()}>
                Load older
              </button>
            ) : (
              <p className="small muted">
                {list.length} {list.length === 1 ? 'event' : 'events'}; none older.
              </p>
            )}
          </div>
          {pages.isFetchNextPageError && (
            <p className="form-error" role="alert">
              More events could not be loaded. {serverMessage(pages.error) ?? 'Check your connection and try again.'}{' '}
              <button type="button" className="button button-quiet button-small" onClick={() => void pages.fetchNextPage()}>
                Try again
              </button>
            </p>
          )}
        </div>
      )}
    </ListState>
  );
}

/** Says how many events happened since the newest shown, and offers to show the newest. */
function NewerBanner({ timeline }: { timeline: AuditTimeline }) {
  const { newerCount, newerCapped, showNewest } = timeline;
  if (newerCount === 0) return null;
  return (
    <p className="audit-newer" role="status">
      {newerCapped ? `${newerCount} or more new events` : `${newerCount} new ${newerCount === 1 ? 'event' : 'events'}`}
      {' — '}
      <button type="button" className="button button-primary button-small" onClick={showNewest}>
        Show newest
      </button>
    </p>
  );
}

function EmptyTimeline({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className="empty-state">
      <h2>{filtered ? 'No events match these filters' : 'No events yet'}</h2>
      <div className="muted">
        {filtered ? (
          <button type="button" className="button" onClick={onClear}>
            Clear filters
          </button>
        ) : (
          <p>Events appear here as people use Needl.</p>
        )}
      </div>
    </div>
  );
}
