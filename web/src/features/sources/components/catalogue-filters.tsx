import { useId } from 'react';
import { EMPTY_FILTER, isFiltered, NO_GROUP, type CatalogueFilter, type FollowFilter } from '../catalogue-filter';

export interface CatalogueFiltersProps {
  filter: CatalogueFilter;
  /** The catalogue's groups, for the group filter. */
  groups: string[];
  onChange: (filter: CatalogueFilter) => void;
}

/**
 * The catalogue's search box and filters: group, followed or not, and only what is fetched here;
 * Clear filters while any narrows the list.
 */
export function CatalogueFilters({ filter, groups, onChange }: CatalogueFiltersProps) {
  const id = useId();
  const set = (change: Partial<CatalogueFilter>) => onChange({ ...filter, ...change });
  return (
    <form role="search" aria-label="Public sources" className="catalogue-filters" onSubmit={(event) => event.preventDefault()}>
      <div className="field catalogue-search">
        <label className="field-label" htmlFor={`${id}-q`}>
          Search sources
        </label>
        <input
          id={`${id}-q`}
          type="search"
          className="input"
          placeholder="Name, group or key"
          autoComplete="off"
          value={filter.q}
          onChange={(event) => set({ q: event.target.value })}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-group`}>
          Group
        </label>
        <select id={`${id}-group`} className="input select" value={filter.group} onChange={(event) => set({ group: event.target.value })}>
          <option value="">All groups</option>
          {groups.map((group) => (
            <option key={group} value={group}>
              {group}
            </option>
          ))}
          <option value={NO_GROUP}>No group</option>
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-show`}>
          Show
        </label>
        <select
          id={`${id}-show`}
          className="input select"
          value={filter.show}
          onChange={(event) => set({ show: event.target.value as FollowFilter })}
        >
          <option value="all">All sources</option>
          <option value="following">Followed</option>
          <option value="not-following">Not followed</option>
        </select>
      </div>
      <label className="checkbox-label catalogue-fetched">
        <input
          type="checkbox"
          className="checkbox"
          checked={filter.fetchedOnly}
          onChange={(event) => set({ fetchedOnly: event.target.checked })}
        />
        Only sources fetched here
      </label>
      {isFiltered(filter) && (
        <button type="button" className="button button-quiet" onClick={() => onChange(EMPTY_FILTER)}>
          Clear filters
        </button>
      )}
    </form>
  );
}
