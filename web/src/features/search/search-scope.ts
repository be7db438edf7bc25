/**
 * Where a search looks, and how that shows in the address. The path's segment after /search is
 * the scope: none for all the user's data, a sub-category (`rss_news`), `today` for the current
 * feed (which the address names with board_id or channel_id), or an app's or needlbox's source
 * (`needldrive`). The four search boxes of the spec are four ways of choosing a scope.
 */
import { titleFromSourceKey } from '../../lib/format';
import { DEFAULT_SEARCH_STATE, withSearchState, type SearchState, type SearchType } from './search-state';

/** The scope of the current feed (a feed's or group's search). */
export const CURRENT_FEED_SCOPE = 'today';

/** The spec's four search boxes. */
export type SearchBoxKind = 'my_data' | 'current_feed' | 'needl_web' | 'shared_data';

/** What a search box searches. */
export interface SearchTarget {
  /** The path segment after /search; null for /search. */
  scope: string | null;
  searchType: SearchType | null;
  boardId?: string | null;
  channelId?: string | null;
}

export const SEARCH_BOX_LABELS: Record<SearchBoxKind, string> = {
  my_data: 'Search My Data',
  current_feed: 'Search this feed',
  needl_web: 'Search Needl Web',
  shared_data: 'Search shared data',
};

export const MY_DATA: SearchTarget = { scope: null, searchType: null };
export const NEEDL_WEB: SearchTarget = { scope: null, searchType: 'needl_web' };
export const SHARED_DATA: SearchTarget = { scope: null, searchType: 'shared_data' };

/** Returns the target of the current-feed box: the feed's board or the group's channel. */
export const currentFeed = (feed: { boardId?: string | null; channelId?: string | null }): SearchTarget => ({
  scope: CURRENT_FEED_SCOPE,
  searchType: null,
  boardId: feed.boardId ?? null,
  channelId: feed.channelId ?? null,
});

/** Returns whether a path is a search page (whose header is the search's own). */
export const isSearchPath = (pathname: string): boolean => pathname === '/search' || pathname.startsWith('/search/');

/** The full-page search (the spec's /search/full): all of My Data, without the app's navigation. */
export const FULL_SEARCH_PATH = '/search/full';

/** Returns the scope a /search path names (`/search/full` is the full-page search: no scope). */
export function scopeFromPath(segment: string | undefined): string | null {
  if (!segment || segment === 'full') return null;
  return segment;
}

/**
 * Returns `href`, the address of a new search, kept on the full-page search when the search
 * starts there and looks at no narrower scope (a feed's or a source's search has its own page).
 */
export function keepFullPage(href: string, pathname: string): string {
  if (pathname.replace(/(.)\/+$/, '$1') !== FULL_SEARCH_PATH || !/^\/search(\?|$)/.test(href)) return href;
  return `${FULL_SEARCH_PATH}${href.slice('/search'.length)}`;
}

/** A page of an app's or the needlbox's source: /apps/{source}/..., /needlbox/{source}/... */
const CATEGORY_SOURCE = /^\/(apps|needlbox)\/([^/]+)/;

/**
 * The needlbox's organising views, which are no source to search yet: the server takes
 * /search/bookmarks and /search/tags for source ids and finds nothing until tags and bookmarks
 * land, so their pages' header box searches My Data instead.
 */
const UNSEARCHABLE_NEEDLBOX_VIEWS: ReadonlySet<string> = new Set(['bookmarks', 'tags', 'comments']);

/**
 * Returns what the header's search box searches on a page, with its kind: the feed or group
 * being read (current feed), an app's or the needlbox's source (its own /search/{source}), or
 * else all of My Data (also on the needlbox's bookmarks, tags and comments, not searchable yet).
 */
export function headerSearchTarget(pathname: string): { kind: SearchBoxKind | 'source'; target: SearchTarget } {
  const [, area, source] = pathname.split('/');
  if (area === 'feeds' && source && source !== 'home') {
    return { kind: 'current_feed', target: currentFeed({ boardId: decodeURIComponent(source) }) };
  }
  if (area === 'channels' && source) {
    return { kind: 'current_feed', target: currentFeed({ channelId: decodeURIComponent(source) }) };
  }
  const category = CATEGORY_SOURCE.exec(pathname);
  const scope = category ? decodeURIComponent(category[2]) : null;
  if (scope && !(category?.[1] === 'needlbox' && UNSEARCHABLE_NEEDLBOX_VIEWS.has(scope))) {
    return { kind: 'source', target: { scope, searchType: null } };
  }
  return { kind: 'my_data', target: MY_DATA };
}

/**
 * Returns the address that searches `target` for `q`. The sort and date range of `keep` (the
 * search being looked at) stay; the tab and page start again. Callers carry the overlay's
 * parameters over, as all navigation does.
 */
export function searchHref(target: SearchTarget, q: string, keep: Partial<SearchState> = {}): string {
  const state: SearchState = {
    ...DEFAULT_SEARCH_STATE,
    sort: keep.sort ?? DEFAULT_SEARCH_STATE.sort,
    sortOrder: keep.sortOrder ?? null,
    dateRange: keep.dateRange ?? null,
    exact: keep.exact ?? false,
    q: q.trim(),
    searchType: target.searchType,
    boardId: target.boardId ?? null,
    channelId: target.channelId ?? null,
  };
  const path = target.scope ? `/search/${encodeURIComponent(target.scope)}` : '/search';
  return `${path}${withSearchState(new URLSearchParams(), state)}`;
}

/** Names the app knows for scopes and feeds; the page looks them up from the server's lists. */
export interface ScopeNames {
  /** A sub-category's or source's label (`rss_news` → Website & RSS). */
  scope?: (key: string) => string | undefined;
  /** A followed feed's name by its id. */
  feed?: (id: string) => string | undefined;
}

/** Returns where a search looks, as its header says it: "My Data", "Needl Web", a feed's name... */
export function locationLabel(
  state: Pick<SearchState, 'searchType' | 'boardId' | 'channelId'>,
  scope: string | null,
  names: ScopeNames = {},
): string {
  if (state.searchType === 'needl_web') return 'Needl Web';
  if (state.searchType === 'shared_data') return 'Shared Data';
  if (!scope) return 'My Data';
  if (scope === CURRENT_FEED_SCOPE) {
    if (state.boardId) return names.feed?.(state.boardId) ?? 'this feed';
    if (state.channelId) return names.feed?.(state.channelId) ?? 'this group';
    return 'Today';
  }
  return names.scope?.(scope) ?? titleFromSourceKey(scope);
}

/** Returns the search page's header: the query "in" where it looks. */
export const searchHeading = (q: string, location: string): string => `"${q}" in ${location}`;

/** The choices of the search page's "Search in" control. */
export type ScopeChoice = 'here' | 'my_data' | 'needl_web' | 'shared_data';

/** Returns whether the search looks somewhere narrower than all of My Data (a path scope or feed). */
export const isNarrowed = (scope: string | null, state: Pick<SearchState, 'boardId' | 'channelId'>): boolean =>
  Boolean(scope || state.boardId || state.channelId);

/** Returns the "Search in" choice that describes the current search. */
export function currentScopeChoice(scope: string | null, state: Pick<SearchState, 'searchType' | 'boardId' | 'channelId'>): ScopeChoice {
  if (state.searchType) return state.searchType;
  return isNarrowed(scope, state) ? 'here' : 'my_data';
}

/** Returns the target of a "Search in" choice; `here` keeps the current scope. */
export function targetOfChoice(choice: ScopeChoice, scope: string | null, state: Pick<SearchState, 'boardId' | 'channelId'>): SearchTarget {
  switch (choice) {
    case 'here':
      return { scope, searchType: null, boardId: state.boardId, channelId: state.channelId };
    case 'needl_web':
      return NEEDL_WEB;
    case 'shared_data':
      return SHARED_DATA;
    default:
      return MY_DATA;
  }
}
