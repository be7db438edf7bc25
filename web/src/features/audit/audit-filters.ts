/**
 * The timeline's filters as the page address keeps them (so a filtered view can be shared) and as
 * the API takes them. One set of names serves both: the API's query parameters.
 */

export const FILTER_NAMES = ['user', 'aggregate_type', 'aggregate_id', 'event_type', 'from', 'to', 'request_id'] as const;

export type FilterName = (typeof FILTER_NAMES)[number];

/** Each filter that is set; `from` and `to` are RFC 3339 instants. */
export type AuditFilters = Partial<Record<FilterName, string>>;

/** Returns the filters an address's query string names; unknown and empty parameters are left out. */
export function filtersFromSearch(search: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of FILTER_NAMES) {
    const value = search.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/**
 * Returns the query string (without `?`) for `filters`, in a fixed order and without empty
 * values, so the same filters always make the same string (it is part of the query key).
 */
export function filtersQuery(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = filters[name]?.trim();
    if (value) params.set(name, value);
  }
  return params.toString();
}

/** Returns whether any filter is set. */
export const isFiltered = (filters: AuditFilters): boolean => filtersQuery(filters) !== '';

/** Returns `search` with the filters replaced by `filters`, keeping its other parameters. */
export function withFilters(search: URLSearchParams, filters: AuditFilters): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const name of FILTER_NAMES) next.delete(name);
  for (const [name, value] of new URLSearchParams(filtersQuery(filters))) next.set(name, value);
  return next;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Returns an instant as a `datetime-local` input shows it (local time, to the minute); '' for none or nonsense. */
export function toLocalInput(instant: string | undefined): string {
  if (!instant) return '';
  const d = new Date(instant);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Returns a `datetime-local` input's value (local time) as an RFC 3339 instant in UTC; undefined when empty or invalid. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
