/**
 * The search calls: `POST /search` (or `/search/{scope}`) with `type: "category"` for the tabs
 * and their counts, and `type: "results"` for a page of hits. Answers are parsed, so a server
 * that drifts from the contract fails here rather than in a component. Both are cached
 * indefinitely (the spec), keyed by everything sent; the live socket marks them stale when
 * documents change. A 400 (a keyword expression the server refused, a wrong date shorthand) is
 * the user's to fix: it is not retried, and the page shows its message by the search box.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { isApiError } from '../../../lib/api-client';
import { shouldRetry } from '../../../lib/query-client';
import { searchKeys } from '../../../lib/queries/search-keys';
import { sentimentField } from '../../../lib/sentiment';
import { SEARCH_PAGE_SIZE, startFrom } from '../pagination';
import { sortForRequest, type SearchState, type SearchType, type SortOrder } from '../search-state';

/** The body of both search calls, as the server reads it. */
export interface SearchRequest {
  type: 'category' | 'results';
  q: string;
  search_type: SearchType | null;
  category_tab: string | null;
  start_from: number;
  num_docs: number;
  sort: string | null;
  sort_order: SortOrder | null;
  date_range: string | null;
  today_date_range: boolean;
  /** The browser's IANA zone, so date ranges start at the user's midnight. */
  timezone: string;
  spell_correct: boolean;
  exact: boolean;
  board_id: string | null;
  channel_id: string | null;
}

const queryParamsSchema = z.object({ q: z.string(), corrected_q: z.string().nullish() });

const categoryTabSchema = z.object({
  key: z.string(),
  label: z.string(),
  icon: z.string().nullish(),
  count: z.number().int().nonnegative(),
  data: z.object({ sub_category: z.string().nullish() }).nullish(),
});

const categoryAnswerSchema = z.object({
  category_tabs: z.array(categoryTabSchema),
  count: z.number().int().nonnegative(),
  query_params: queryParamsSchema,
});

/** Metadata values are strings by contract; a number or flag is taken as its text. */
const metadataSchema = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((map) =>
    Object.fromEntries(
      Object.entries(map ?? {}).flatMap(([key, value]) =>
        typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? [[key, String(value)]] : [],
      ),
    ) as Record<string, string>,
  );

const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);

const highlightSchema = z.object({
  html: z.string(),
  page: z.number().int().positive().nullish(),
  boxes: z.array(boxSchema).nullish().transform((boxes) => boxes ?? []),
});

const hitSchema = z.object({
  deeplink: z.string(),
  source: z.string(),
  source_label: z.string().nullish(),
  category_tab: z.string().nullish(),
  link: z.string().nullish(),
  title: z.string(),
  author: z.string().nullish(),
  published_at: z.string().nullish(),
  /** When Needl recorded it: the card's date when the document has no publication date. */
  ingested_at: z.string().nullish(),
  summary: z.string().nullish(),
  metadata: metadataSchema,
  read: z.boolean().optional().default(false),
  owned: z.boolean().optional().default(false),
  access_key: z.string().nullish(),
  score: z.number().optional(),
  highlights: z.array(highlightSchema).nullish().transform((list) => list ?? []),
  sentiment: sentimentField,
});

const resultsAnswerSchema = z.object({
  results: z.array(hitSchema),
  count: z.number().int().nonnegative(),
  start_from: z.number().int().nonnegative(),
  num_docs: z.number().int().nonnegative(),
  query_params: queryParamsSchema,
});

export type CategoryTab = z.infer<typeof categoryTabSchema>;
export type CategoryAnswer = z.infer<typeof categoryAnswerSchema>;
export type SearchHit = z.infer<typeof hitSchema>;
export type SearchHighlight = z.infer<typeof highlightSchema>;
export type ResultsAnswer = z.infer<typeof resultsAnswerSchema>;

/** Category keys never shown as tabs (the server leaves them out too). */
export const HIDDEN_CATEGORY_TABS: ReadonlySet<string> = new Set(['today', 'links', 'media']);

/** Returns the tabs to show: the server's, in its order, without the hidden ones. */
export const visibleTabs = (tabs: readonly CategoryTab[]): CategoryTab[] => tabs.filter((tab) => !HIDDEN_CATEGORY_TABS.has(tab.key));

/** Returns the browser's time zone (UTC when it cannot say). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * Returns the body of a search call. The category call asks for no documents, from the start,
 * across every tab, and ignores the sort (which does not change the counts).
 */
export function searchRequest(type: SearchRequest['type'], state: SearchState, timezone = browserTimeZone()): SearchRequest {
  const results = type === 'results';
  const sort = results ? sortForRequest(state) : { sort: null, sort_order: null };
  return {
    type,
    q: state.q,
    search_type: state.searchType,
    category_tab: results ? state.categoryTab : null,
    start_from: results ? startFrom(state.page) : 0,
    num_docs: results ? SEARCH_PAGE_SIZE : 0,
    ...sort,
    date_range: state.dateRange,
    today_date_range: false,
    timezone,
    spell_correct: state.spellCorrect,
    exact: state.exact,
    board_id: state.boardId,
    channel_id: state.channelId,
  };
}

const searchPath = (scope: string | null) => (scope ? `/search/${encodeURIComponent(scope)}` : '/search');

/** Returns whether the server refused the search itself (so asking again cannot help). */
export const isRefusedSearch = (error: unknown): boolean => isApiError(error) && error.status >= 400 && error.status < 500;

const retrySearch = (failureCount: number, error: unknown) => !isRefusedSearch(error) && shouldRetry(failureCount, error);

export const searchQueries = {
  categories: (scope: string | null, state: SearchState) => {
    const body = searchRequest('category', state);
    return queryOptions({
      queryKey: searchKeys.categories(scope, body),
      queryFn: async ({ signal }) => categoryAnswerSchema.parse(await api.post<unknown>(searchPath(scope), { body, signal })),
      staleTime: Infinity,
      retry: retrySearch,
      meta: { toast: false },
    });
  },
  results: (scope: string | null, state: SearchState) => {
    const body = searchRequest('results', state);
    return queryOptions({
      queryKey: searchKeys.results(scope, body),
      queryFn: async ({ signal }) => resultsAnswerSchema.parse(await api.post<unknown>(searchPath(scope), { body, signal })),
      staleTime: Infinity,
      retry: retrySearch,
      meta: { toast: false },
    });
  },
};
