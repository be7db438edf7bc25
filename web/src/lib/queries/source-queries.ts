/**
 * The followed RSS sources. Shared: the sources feature manages them and the documents feature
 * shows their labels on cards.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api';
import { sourceKeys } from './source-keys';

export type Priority = 'HIGH' | 'MEDIUM' | 'LOW';

export interface RssSource {
  source_id: string;
  priority: Priority;
  key: string;
  label: string;
  link_to_crawl: string;
  thumbnail_location: string | null;
  /** Why the last fetches failed, while they keep failing (e.g. an address the server refuses). */
  last_error?: string | null;
  /** When the feed was last read successfully. */
  last_fetched_at?: string | null;
  /** When the feed was last tried, whatever came of it; null before the first try. */
  last_attempt_at?: string | null;
  /** When the feed is tried next (later after each failure). */
  next_attempt_at?: string | null;
}

export interface RssSourceList {
  results: RssSource[];
}

/** Asks for a followed feed to be fetched now instead of at its next attempt. */
export const retryFeed = (sourceId: string) =>
  api.post<RssSource>(`/source/rss/${encodeURIComponent(sourceId)}/retry`, { body: {} });

/** Stops following a feed (by its source id). */
export const unfollowFeed = (sourceId: string) =>
  api.post<unknown>('/connect/public?delink=true', { body: { key: sourceId } });

/** How long after a feed fell due its try is waited for; past that the server is not fetching. */
const FETCH_WAIT_MS = 120_000;

/**
 * Whether a feed (or any source read on a schedule, such as a company followed on EDGAR) is
 * waiting for a try that is due now (just followed, or retried) and has not been recorded yet.
 */
export function fetchPending(
  source: Pick<RssSource, 'last_attempt_at' | 'next_attempt_at'>,
  now: number = Date.now(),
): boolean {
  if (!source.next_attempt_at) return false;
  const due = new Date(source.next_attempt_at).getTime();
  const tried = source.last_attempt_at ? new Date(source.last_attempt_at).getTime() : -Infinity;
  return due <= now && now - due < FETCH_WAIT_MS && tried < due;
}

/** Whether any feed of the list waits for its try: the list is then asked again shortly. */
export const awaitingFetch = (list: RssSourceList | undefined) => Boolean(list?.results.some((s) => fetchPending(s)));

export const sourceQueries = {
  rss: () =>
    queryOptions({
      queryKey: sourceKeys.rss(),
      queryFn: ({ signal }) => api.get<RssSourceList>('/source/rss', { signal }),
      staleTime: 15_000,
      // A fetch's outcome is no event on the live socket: while a feed waits for a try that is
      // due (just followed, or retried), the list is asked for again until the try is recorded.
      refetchInterval: (query) => (awaitingFetch(query.state.data) ? 2_000 : false),
    }),
};
