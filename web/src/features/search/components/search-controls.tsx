import { useId } from 'react';
import { DATE_RANGE_SHORTHANDS, formatDate, parseDateShorthand } from '../../../lib/format';
import { SORT_OPTIONS, sortTakesOrder, type DateRangeCode, type SearchState, type SortKey, type SortOrder } from '../search-state';

export interface SearchControlsProps {
  state: SearchState;
  onChange: (change: Partial<SearchState>) => void;
  now?: Date;
}

/** The sort (with its direction where it has one) and the date range of a search, with its dates. */
export function SearchControls({ state, onChange, now }: SearchControlsProps) {
  const id = useId();
  const range = state.dateRange ? parseDateShorthand(state.dateRange, now) : null;
  return (
    <div className="search-controls">
      <label className="search-control" htmlFor={`${id}-sort`}>
        <span className="small muted">Sort by</span>
        <select
          id={`${id}-sort`}
          className="input select"
          value={state.sort}
          onChange={(event) => onChange({ sort: event.target.value as SortKey })}
        >
          {SORT_OPTIONS.map((option) => (
            <option key={option.key} value={option.key}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {sortTakesOrder(state.sort) && (
        <label className="search-control" htmlFor={`${id}-order`}>
          <span className="small muted">Order</span>
          <select
            id={`${id}-order`}
            className="input select"
            value={state.sortOrder ?? 'desc'}
            onChange={(event) => onChange({ sortOrder: event.target.value as SortOrder })}
          >
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
      )}
      <label className="search-control" htmlFor={`${id}-date`}>
        <span className="small muted">Date</span>
        <select
          id={`${id}-date`}
          className="input select"
          value={state.dateRange ?? ''}
          onChange={(event) => onChange({ dateRange: (event.target.value || null) as DateRangeCode | null })}
        >
          <option value="">Any time</option>
          {DATE_RANGE_SHORTHANDS.map((range) => (
            <option key={range.shorthand} value={range.shorthand}>
              {range.label}
            </option>
          ))}
        </select>
      </label>
      {range && (
        <p className="search-range-dates small muted" data-testid="date-range-dates">
          {formatDate(range.from)} to {formatDate(range.to)}
        </p>
      )}
    </div>
  );
}
