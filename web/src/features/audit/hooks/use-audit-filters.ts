import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { filtersFromSearch, filtersQuery, withFilters, type AuditFilters } from '../audit-filters';

/**
 * Returns the timeline's filters, read from the page address, and ways to change them: each change
 * is a new history entry, so Back undoes it and the address can be shared.
 */
export function useAuditFilters() {
  const [search, setSearch] = useSearchParams();
  const key = filtersQuery(filtersFromSearch(search));
  // One object per distinct set of filters, so queries and effects see a stable value.
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(key)), [key]);
  const setFilters = useCallback((next: AuditFilters) => setSearch((current) => withFilters(current, next)), [setSearch]);
  const clear = useCallback(() => setSearch((current) => withFilters(current, {})), [setSearch]);
  return { filters, setFilters, clear };
}
