/**
 * The search page's state, which lives in the address so back, forward and shared links give
 * the same search: q, spell_correct, search_type, category_tab, search_page (from 1), sort,
 * sort_order, date_range, exact, and the feed a current-feed search is in (board_id or
 * channel_id). Reading is forgiving (a bad value means the default); writing leaves defaults
 * out, so an address stays short and one search has one address.
 */
import { DATE_RANGE_SHORTHANDS } from '../../lib/format';

export const SEARCH_TYPES = ['needl_web', 'shared_data'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** The sorts the spec lists, with their labels; `relevance` is the default. */
export const SORT_OPTIONS = [
  { key: 'relevance', label: 'Relevance' },
  { key: 'dateDsc', label: 'Newest first' },
  { key: 'dateAsc', label: 'Oldest first' },
  { key: 'updatedDate', label: 'Last updated' },
  { key: 'size', label: 'Size' },
  { key: 'attachments', label: 'Attachments' },
  { key: 'company', label: 'Company' },
  { key: 'category', label: 'Category' },
] as const;
export type SortKey = (typeof SORT_OPTIONS)[number]['key'];
export type SortOrder = 'asc' | 'desc';

/** Sorts whose direction is part of the key; the others take `sort_order`. */
const DIRECTED_SORTS: Partial<Record<SortKey, SortOrder>> = { dateDsc: 'desc', dateAsc: 'asc' };

/** Returns whether the sort has its own ascending/descending choice. */
export const sortTakesOrder = (sort: SortKey): boolean => sort !== 'relevance' && !(sort in DIRECTED_SORTS);

export type DateRangeCode = (typeof DATE_RANGE_SHORTHANDS)[number]['shorthand'];

export interface SearchState {
  q: string;
  /** Whether the server may correct the query's spelling (turned off by "Search instead for"). */
  spellCorrect: boolean;
  /** Which store is searched: null for the user's own data. */
  searchType: SearchType | null;
  /** The chosen category tab; null for all of them. */
  categoryTab: string | null;
  /** From 1. */
  page: number;
  sort: SortKey;
  /** Only for sorts that take one; null means the server's default (descending). */
  sortOrder: SortOrder | null;
  dateRange: DateRangeCode | null;
  /** Whole-phrase matching. */
  exact: boolean;
  /** The feed or group a current-feed search (/search/today) is in. */
  boardId: string | null;
  channelId: string | null;
}

export const DEFAULT_SEARCH_STATE: SearchState = {
  q: '',
  spellCorrect: true,
  searchType: null,
  categoryTab: null,
  page: 1,
  sort: 'relevance',
  sortOrder: null,
  dateRange: null,
  exact: false,
  boardId: null,
  channelId: null,
};

/** The address parameters the search state is kept in (others, such as overlay-, are left alone). */
export const SEARCH_PARAM_NAMES = [
  'q',
  'spell_correct',
  'search_type',
  'category_tab',
  'search_page',
  'sort',
  'sort_order',
  'date_range',
  'exact',
  'board_id',
  'channel_id',
] as const;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;

const SORT_KEYS = SORT_OPTIONS.map((o) => o.key);
const DATE_RANGE_CODES = DATE_RANGE_SHORTHANDS.map((d) => d.shorthand);

const nonEmpty = (value: string | null) => (value && value.trim() ? value : null);

/** Returns the search state an address's parameters describe. */
export function parseSearchParams(params: URLSearchParams): SearchState {
  const page = Number(params.get('search_page'));
  const sort = oneOf(SORT_KEYS, params.get('sort')) ?? 'relevance';
  return {
    q: params.get('q')?.trim() ?? '',
    spellCorrect: params.get('spell_correct') !== 'false',
    searchType: oneOf(SEARCH_TYPES, params.get('search_type')),
    categoryTab: nonEmpty(params.get('category_tab')),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    sort,
    sortOrder: sortTakesOrder(sort) ? oneOf(['asc', 'desc'] as const, params.get('sort_order')) : null,
    dateRange: oneOf(DATE_RANGE_CODES, params.get('date_range')),
    exact: params.get('exact') === 'true',
    boardId: nonEmpty(params.get('board_id')),
    channelId: nonEmpty(params.get('channel_id')),
  };
}

/** Returns the parameters of a search state, defaults left out, in a fixed order. */
export function serialiseSearchState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (!state.spellCorrect) params.set('spell_correct', 'false');
  if (state.searchType) params.set('search_type', state.searchType);
  if (state.categoryTab) params.set('category_tab', state.categoryTab);
  if (state.page > 1) params.set('search_page', String(state.page));
  if (state.sort !== 'relevance') params.set('sort', state.sort);
  if (state.sortOrder && sortTakesOrder(state.sort)) params.set('sort_order', state.sortOrder);
  if (state.dateRange) params.set('date_range', state.dateRange);
  if (state.exact) params.set('exact', 'true');
  if (state.boardId) params.set('board_id', state.boardId);
  if (state.channelId) params.set('channel_id', state.channelId);
  return params;
}

/**
 * Returns the query string for `state`, keeping the parameters of `current` that are not the
 * search's (the overlay's, which navigation carries over).
 */
export function withSearchState(current: URLSearchParams, state: SearchState): string {
  const next = new URLSearchParams();
  current.forEach((value, key) => {
    if (!(SEARCH_PARAM_NAMES as readonly string[]).includes(key)) next.append(key, value);
  });
  serialiseSearchState(state).forEach((value, key) => next.set(key, value));
  const text = next.toString();
  return text ? `?${text}` : '';
}

/**
 * Returns the state after a change the user made. Anything but turning the page starts again at
 * page 1; a new query also forgets the tab (its counts were for the old query) and lets the
 * server correct spelling again.
 */
export function changeSearch(state: SearchState, change: Partial<SearchState>): SearchState {
  const next = { ...state, page: 1, ...change };
  if (change.q !== undefined && change.q !== state.q) {
    if (change.categoryTab === undefined) next.categoryTab = null;
    if (change.spellCorrect === undefined) next.spellCorrect = true;
  }
  if (!sortTakesOrder(next.sort)) next.sortOrder = null;
  return next;
}

/** Returns the `sort` and `sort_order` the server is sent: null for relevance. */
export function sortForRequest(state: Pick<SearchState, 'sort' | 'sortOrder'>): { sort: string | null; sort_order: SortOrder | null } {
  if (state.sort === 'relevance') return { sort: null, sort_order: null };
  return { sort: state.sort, sort_order: DIRECTED_SORTS[state.sort] ?? state.sortOrder ?? 'desc' };
}
