import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { titleFromSourceKey } from '../../../lib/format';
import { carryOverlayParams } from '../../../lib/overlay/overlay-params';
import { libraryQueries } from '../../../lib/queries/library-queries';
import { headerSearchTarget, SEARCH_BOX_LABELS, searchHref } from '../search-scope';
import { ExpandableSearch } from './expandable-search';

/**
 * The search entry in the app's header. On a feed or group it searches that feed (the
 * current-feed box, /search/today); on an app's or the needlbox's source, that source
 * (/search/{source}); elsewhere all of My Data. The search page has its own box with the other
 * kinds (Needl Web, shared data).
 */
export function HeaderSearch() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { kind, target } = headerSearchTarget(pathname);
  const categories = useQuery({ ...libraryQueries.categories(), enabled: kind === 'source' });
  const sourceName = (key: string) =>
    categories.data?.results.flatMap((c) => c.sources).find((s) => s.key === key)?.label ?? titleFromSourceKey(key);
  const label = kind === 'source' && target.scope ? `Search ${sourceName(target.scope)}` : SEARCH_BOX_LABELS[kind === 'source' ? 'my_data' : kind];
  // A new box per page: one left open on a page does not follow the user to the next.
  return <ExpandableSearch key={pathname} label={label} onSubmit={(q) => navigate(carryOverlayParams(searchHref(target, q), search))} />;
}
