import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { carryOverlayParams } from '../../../lib/overlay/overlay-params';
import { keepFullPage, scopeFromPath, searchHref, type SearchTarget } from '../search-scope';
import { changeSearch, parseSearchParams, withSearchState, type SearchState } from '../search-state';

/** Returns the scope of a /search path (the segment after /search), or null. */
export const scopeOfPathname = (pathname: string): string | null => {
  const [, area, segment] = pathname.split('/');
  return area === 'search' && segment ? scopeFromPath(decodeURIComponent(segment)) : null;
};

/**
 * Returns the search the address describes, and ways to change it: `hrefFor` (the address of a
 * change, for links), `update` (go there) and `searchIn` (a new query, somewhere else maybe).
 * Read from the location rather than route params, so the shell's header can use it too. A new
 * search on the full-page search (/search/full) stays there.
 */
export function useSearchState() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const scope = scopeOfPathname(pathname);
  const state = useMemo(() => parseSearchParams(new URLSearchParams(search)), [search]);

  const hrefFor = useCallback(
    (change: Partial<SearchState>) => `${pathname}${withSearchState(new URLSearchParams(search), changeSearch(state, change))}`,
    [pathname, search, state],
  );
  const update = useCallback((change: Partial<SearchState>) => navigate(hrefFor(change)), [navigate, hrefFor]);
  const searchIn = useCallback(
    (target: SearchTarget, q: string) => navigate(carryOverlayParams(keepFullPage(searchHref(target, q, state), pathname), search)),
    [navigate, state, search, pathname],
  );
  return { scope, state, hrefFor, update, searchIn };
}
