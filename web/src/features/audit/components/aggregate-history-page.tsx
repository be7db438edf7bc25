import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ListState } from '../../../components/ui/list-state';
import type { ToastMeta } from '../../../lib/query-client';
import { auditQueries, type HistoryPoint } from '../api/audit-api';
import { fromLocalInput, toLocalInput } from '../audit-filters';
import { actorName, aggregateNoun, readableAggregateType } from '../audit-format';
import { AUDIT_PATH } from '../audit-paths';
import { useCanAudit } from '../hooks/use-can-audit';
import { AggregateState } from './aggregate-state';
import { HistoryEvents } from './history-events';
import { NotAllowed } from './not-allowed';
import { When } from './when';

/**
 * /settings/audit/history?type=&id=[&at=|&time=]: one aggregate's whole history, and its state as
 * of a point picked in it (after one of its events, or at a moment). The point is in the address,
 * so Back returns to the previous one and the view can be shared.
 */
export function AggregateHistoryPage() {
  return useCanAudit() ? <AggregateHistory /> : <NotAllowed />;
}

function AggregateHistory() {
  const [search, setSearch] = useSearchParams();
  const type = search.get('type') ?? '';
  const id = search.get('id') ?? '';
  if (!type || !id) {
    return (
      <EmptyState title="No history picked">
        <p>
          Open an event in the <Link to={AUDIT_PATH}>audit log</Link> and follow its History link.
        </p>
      </EmptyState>
    );
  }
  const at = search.get('at');
  const time = search.get('time');
  const pick = (point: HistoryPoint) => setSearch(new URLSearchParams({ type, id, ...point }));
  return <History key={`${type}/${id}`} type={type} id={id} at={at} time={time} onPick={pick} />;
}

interface HistoryProps {
  type: string;
  id: string;
  at: string | null;
  time: string | null;
  onPick: (point: HistoryPoint) => void;
}

function History({ type, id, at, time, onPick }: HistoryProps) {
  const history = useQuery({ ...auditQueries.history(type, id), meta: { toast: false } satisfies ToastMeta });
  const events = history.data?.events ?? [];
  const noun = aggregateNoun(type);
  const latest = events.at(-1)?.cursor ?? null;
  // With no point in the address, the state now: after the latest event.
  const point: HistoryPoint | null = at ? { at } : time ? { time } : latest ? { at: latest } : null;
  const first = events[0];

  return (
    <div className="audit-page stack-lg">
      <p>
        <Link to={AUDIT_PATH}>Back to the audit log</Link>
      </p>
      <section className="card stack" aria-labelledby="audit-history-heading">
        <h2 id="audit-history-heading" className="card-title">
          History of the {noun}
        </h2>
        <p className="small muted">
          {readableAggregateType(type)} <code className="audit-id">{id}</code>
          {first && (
            <>
              {' '}
              · {events.length} {events.length === 1 ? 'event' : 'events'}, the first by {actorName(first)} <When instant={first.recorded_at} />
            </>
          )}
        </p>
        <ListState query={history} loadingLabel="Loading the history" errorTitle="The history could not be loaded">
          {() => (
            <div className="audit-history-layout">
              <div className="stack">
                <h3 className="audit-detail-heading">Pick a point</h3>
                <HistoryEvents events={events} selected={point && 'at' in point ? point.at : null} onPick={(cursor) => onPick({ at: cursor })} label={`Events of the ${noun}`} />
                <MomentForm time={time} onPick={(moment) => onPick({ time: moment })} />
              </div>
              <div className="stack">
                <h3 className="audit-detail-heading">State</h3>
                {point && <AggregateState type={type} id={id} point={point} />}
              </div>
            </div>
          )}
        </ListState>
      </section>
    </div>
  );
}

/** Picks a moment rather than an event: the state as it stood then. */
function MomentForm({ time, onPick }: { time: string | null; onPick: (time: string) => void }) {
  const [value, setValue] = useState(() => toLocalInput(time ?? undefined));
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const instant = fromLocalInput(value);
    if (instant) onPick(instant);
  };
  return (
    <form className="audit-moment" onSubmit={submit}>
      <div className="field">
        <label className="field-label" htmlFor={id}>
          Or as of a moment
        </label>
        <input id={id} className="input" type="datetime-local" step={1} value={value} onChange={(e) => setValue(e.target.value)} />
      </div>
      <button type="submit" className="button" disabled={!fromLocalInput(value)}>
        Show the state then
      </button>
    </form>
  );
}
