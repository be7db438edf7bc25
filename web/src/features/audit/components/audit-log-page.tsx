import { useMemo } from 'react';
import { serverMessage } from '../../../lib/api-client';
import type { StoredEvent } from '../api/audit-api';
import { isFiltered, type AuditFilters } from '../audit-filters';
import { actorName } from '../audit-format';
import { useAuditExport } from '../hooks/use-audit-export';
import { useAuditFilters } from '../hooks/use-audit-filters';
import { useAuditTimeline } from '../hooks/use-audit-timeline';
import { useCanAudit } from '../hooks/use-can-audit';
import { AuditFiltersForm } from './audit-filters-form';
import { ChainPanel } from './chain-panel';
import { EventTimeline } from './event-timeline';
import { NotAllowed } from './not-allowed';

/** /settings/audit: the audit log, for administrators and auditors. */
export function AuditLogPage() {
  return useCanAudit() ? <AuditLog /> : <NotAllowed />;
}

const distinct = (values: string[]) => [...new Set(values)].sort();

/** Returns the people who acted in `events`, by name, for the user filter's suggestions (it takes an id). */
function usersOf(events: StoredEvent[]): Array<{ id: string; name: string }> {
  const users = new Map<string, string>();
  for (const event of events) {
    const id = event.metadata.user_id;
    if (id && !users.has(id)) users.set(id, actorName(event));
  }
  return [...users].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

function AuditLog() {
  const { filters, setFilters, clear } = useAuditFilters();
  const timeline = useAuditTimeline(filters);
  const exporter = useAuditExport(filters);
  const suggestions = useMemo(
    () => ({
      eventTypes: distinct(timeline.events.map((e) => e.event_type)),
      aggregateTypes: distinct(timeline.events.map((e) => e.aggregate_type)),
      users: usersOf(timeline.events),
    }),
    [timeline.events],
  );
  const narrow = (more: AuditFilters) => setFilters({ ...filters, ...more });

  return (
    <div className="audit-page stack-lg">
      <ChainPanel />
      <section className="card stack" aria-labelledby="audit-events-heading">
        <div className="audit-events-head">
          <h2 id="audit-events-heading" className="card-title">
            Events
          </h2>
          <button type="button" className="button" disabled={exporter.isPending} onClick={() => exporter.mutate()}>
            {exporter.isPending ? 'Exporting…' : isFiltered(filters) ? 'Export these events' : 'Export all events'}
          </button>
        </div>
        {exporter.error && (
          <p className="form-error" role="alert">
            The export could not be made. {serverMessage(exporter.error) ?? 'Try again in a moment.'}
          </p>
        )}
        <AuditFiltersForm filters={filters} onApply={setFilters} onClear={clear} suggestions={suggestions} />
        <EventTimeline timeline={timeline} filters={filters} onNarrow={narrow} onClear={clear} />
      </section>
    </div>
  );
}
