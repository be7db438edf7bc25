/**
 * Search feature: the search page (/search, /search/{subCategory}, /search/today for the
 * current feed, /search/{source} for app and needlbox sources) with its category tabs, sort,
 * date range, result cards (highlights rebuilt from the server's `<em>` marks as text, a pager
 * between them, the preview opened at a PDF passage's page) and pages of ten; the header's
 * expandable search box; and the search page's header. All of a search's state is in the
 * address (`search-state.ts`). It owns `POST /search` and `/search/{scope}`; its query keys live
 * in src/lib/queries because the live socket marks searches stale.
 * The page is a second entry, `pages.ts`, which the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export { HeaderSearch } from './components/header-search';
export { SearchTitle } from './components/search-title';
export { isSearchPath } from './search-scope';
