import { useId, useState, type FormEvent } from 'react';
import { FILTER_NAMES, filtersQuery, fromLocalInput, isFiltered, toLocalInput, type AuditFilters, type FilterName } from '../audit-filters';

export interface AuditFiltersFormProps {
  filters: AuditFilters;
  onApply: (filters: AuditFilters) => void;
  onClear: () => void;
  /** Event and aggregate types and users seen so far, offered as the fields are typed in. */
  suggestions: { eventTypes: string[]; aggregateTypes: string[]; users: Array<{ id: string; name: string }> };
}

const LABELS: Record<FilterName, string> = {
  user: 'User id',
  aggregate_type: 'Aggregate type',
  aggregate_id: 'Aggregate id',
  event_type: 'Event type',
  from: 'From',
  to: 'To',
  request_id: 'Request id',
};

const TIMES = new Set<FilterName>(['from', 'to']);

/** Returns the fields' values for `filters`: the times as a `datetime-local` input shows them. */
const draftOf = (filters: AuditFilters) =>
  Object.fromEntries(FILTER_NAMES.map((name) => [name, TIMES.has(name) ? toLocalInput(filters[name]) : (filters[name] ?? '')])) as Record<
    FilterName,
    string
  >;

/**
 * The timeline's filters. Applying them puts them in the address (so the view can be shared);
 * on a phone they fold into a Filters button.
 */
export function AuditFiltersForm(props: AuditFiltersFormProps) {
  // A new set of filters in the address (Back, a shared link, a narrowing link) starts a new draft.
  return <FiltersForm key={filtersQuery(props.filters)} {...props} />;
}

function FiltersForm({ filters, onApply, onClear, suggestions }: AuditFiltersFormProps) {
  const [draft, setDraft] = useState(() => draftOf(filters));
  const [open, setOpen] = useState(false);
  const id = useId();
  const active = Object.keys(filters).length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: AuditFilters = {};
    for (const name of FILTER_NAMES) {
      const value = TIMES.has(name) ? fromLocalInput(draft[name]) : draft[name].trim();
      if (value) next[name] = value;
    }
    onApply(next);
    setOpen(false);
  };

  const field = (name: FilterName, list?: string) => (
    <div className="field" key={name}>
      <label className="field-label" htmlFor={`${id}-${name}`}>
        {LABELS[name]}
      </label>
      <input
        id={`${id}-${name}`}
        className="input"
        type={TIMES.has(name) ? 'datetime-local' : 'text'}
        list={list}
        autoComplete="off"
        spellCheck={false}
        value={draft[name]}
        onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
      />
    </div>
  );

  return (
    <section className="audit-filters-box" aria-label="Filters">
      <button
        type="button"
        className="button audit-filters-toggle"
        aria-expanded={open}
        aria-controls={`${id}-form`}
        onClick={() => setOpen((o) => !o)}
      >
        Filters{active > 0 && ` (${active})`}
      </button>
      <form id={`${id}-form`} className="audit-filters" data-open={open || undefined} onSubmit={submit}>
        <div className="audit-filters-fields">
          {field('event_type', `${id}-event-types`)}
          {field('aggregate_type', `${id}-aggregate-types`)}
          {field('aggregate_id')}
          {field('user', `${id}-users`)}
          {field('request_id')}
          {field('from')}
          {field('to')}
        </div>
        <datalist id={`${id}-event-types`}>
          {suggestions.eventTypes.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
        <datalist id={`${id}-aggregate-types`}>
          {suggestions.aggregateTypes.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
        <datalist id={`${id}-users`}>
          {suggestions.users.map((user) => (
            <option key={user.id} value={user.id} label={user.name} />
          ))}
        </datalist>
        <div className="audit-filters-actions">
          <button type="submit" className="button button-primary">
            Apply filters
          </button>
          <button type="button" className="button" onClick={onClear} disabled={!isFiltered(filters)}>
            Clear filters
          </button>
        </div>
      </form>
    </section>
  );
}
