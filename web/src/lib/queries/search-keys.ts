/**
 * Query keys for search, from general to specific. Shared with the live-event mapping (src/lib),
 * which marks searches stale (without refetching what is on screen) when documents change.
 */
export const searchKeys = {
  all: () => ['search'] as const,
  /** Every category-tab answer. */
  categoryLists: () => [...searchKeys.all(), 'categories'] as const,
  /** The category tabs of one search: `scope` is the path's sub-category, "today" or source id. */
  categories: (scope: string | null, request: object) => [...searchKeys.categoryLists(), scope, request] as const,
  /** Every page of results. */
  resultPages: () => [...searchKeys.all(), 'results'] as const,
  /** One page of results of one search, keyed by everything sent. */
  results: (scope: string | null, request: object) => [...searchKeys.resultPages(), scope, request] as const,
};
