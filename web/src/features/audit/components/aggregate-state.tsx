import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError, serverMessage } from '../../../lib/api-client';
import type { ToastMeta } from '../../../lib/query-client';
import { auditQueries, type HistoryPoint } from '../api/audit-api';
import { aggregateNoun, exactTime, readableEventType } from '../audit-format';
import { JsonView } from './json-view';
import { When } from './when';

export interface AggregateStateProps {
  type: string;
  id: string;
  point: HistoryPoint;
}

/** The aggregate as it was at `point`: its state as formatted JSON and the events that made it so. */
export function AggregateState({ type, id, point }: AggregateStateProps) {
  const state = useQuery({ ...auditQueries.state(type, id, point), meta: { toast: false } satisfies ToastMeta });
  const noun = aggregateNoun(type);

  if (state.isPending) return <Spinner label="Loading the state" showLabel />;
  if (state.isError) {
    if (isApiError(state.error) && state.error.code === 'not_yet') {
      return (
        <EmptyState title={`The ${noun} did not exist yet`}>
          <p>{'time' in point ? `Nothing had happened to it by ${exactTime(point.time)}.` : 'Pick a later event or moment.'}</p>
        </EmptyState>
      );
    }
    return (
      <EmptyState title="The state could not be loaded" role="alert">
        <p>{serverMessage(state.error) ?? 'Check your connection and try again.'}</p>
        <button type="button" className="button" onClick={() => void state.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }

  const { as_of: asOf, events } = state.data;
  return (
    <div className="stack">
      <p aria-live="polite">
        As of <When instant={asOf.time} /> ({exactTime(asOf.time)}), after event {state.data.sequence}.
      </p>
      <JsonView value={state.data.state} label={`State of the ${noun}`} />
      <h3 className="audit-detail-heading">
        {events.length === 1 ? 'The event that led to it' : `The ${events.length} events that led to it`}
      </h3>
      <ol className="audit-led">
        {events.map((event) => (
          <li key={event.cursor}>
            {readableEventType(event.event_type)}, <When instant={event.recorded_at} />
          </li>
        ))}
      </ol>
    </div>
  );
}
