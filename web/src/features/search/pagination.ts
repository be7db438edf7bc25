/** Pages of search results, and the paragraph pager that steps through one result's highlights. */
import { formatPagination } from '../../lib/format';

/** Results on a page. */
export const SEARCH_PAGE_SIZE = 10;

/** Returns the first result's offset for a page (from 1): what the server calls `start_from`. */
export const startFrom = (page: number, pageSize = SEARCH_PAGE_SIZE): number => (Math.max(1, page) - 1) * pageSize;

/** Returns the last page there is for `total` results (1 when there are none). */
export const lastPage = (total: number, pageSize = SEARCH_PAGE_SIZE): number => Math.max(1, Math.ceil(total / pageSize));

/**
 * Returns "x to y of N results" for a page (from 1) that shows `shown` results of `total`, or
 * null when the page shows none.
 */
export function paginationText(page: number, shown: number, total: number, pageSize = SEARCH_PAGE_SIZE): string | null {
  if (shown <= 0) return null;
  const from = startFrom(page, pageSize) + 1;
  const to = from + shown - 1;
  return formatPagination(from, to, Math.max(total, to));
}

/** Returns the highlight shown after stepping by `delta` from `index`, kept within `count`. */
export function stepHighlight(index: number, delta: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(count - 1, Math.max(0, index + delta));
}

/** Returns the pager's text: "1 of 3" (positions from 1). */
export const pagerText = (index: number, count: number): string => `${Math.min(index, count - 1) + 1} of ${count}`;
