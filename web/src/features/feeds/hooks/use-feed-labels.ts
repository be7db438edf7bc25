import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { boardQueries } from '../api/feeds-api';

/**
 * Returns names for path segments that are feed ids (from the cached feed list), so the
 * breadcrumbs and the page title name a feed rather than showing its id.
 */
export function useFeedLabels(): Readonly<Record<string, string>> {
  const boards = useQuery({ ...boardQueries.list(), meta: { toast: false } }).data;
  return useMemo(() => Object.fromEntries((boards ?? []).map((b) => [b.board_id, b.board_name])), [boards]);
}

/** Returns whether `source` (a /feeds/{source} segment) is one of the user's feeds: unknown until the list has loaded. */
export function useIsFeed(source: string | undefined): 'checking' | 'feed' | 'source' {
  const boards = useQuery({ ...boardQueries.list(), enabled: Boolean(source) && source !== 'home', meta: { toast: false } });
  if (!source || source === 'home') return 'source';
  if (boards.isPending && boards.fetchStatus !== 'idle') return 'checking';
  return boards.data?.some((b) => b.board_id === source) ? 'feed' : 'source';
}
