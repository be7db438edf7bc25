import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { isAfter } from '../../../lib/live-audit';
import { auditKeys } from '../../../lib/queries/audit-keys';
import type { ToastMeta } from '../../../lib/query-client';
import { auditQueries, PAGE_SIZE, type EventPage } from '../api/audit-api';
import { filtersQuery, type AuditFilters } from '../audit-filters';

const quiet = { toast: false } satisfies ToastMeta;

/** Returns the newest cursor the live socket announced (written by src/lib/live-audit.ts, never fetched). */
function useLiveHead(): string | null {
  return (
    useQuery({
      queryKey: auditKeys.head(),
      queryFn: () => null as string | null,
      enabled: false,
      staleTime: Infinity,
    }).data ?? null
  );
}

/**
 * The timeline in feed order, paged with the cursor, and what the live socket says is newer.
 * Once every page is loaded and the socket announces a head beyond the last event shown, the
 * events after it that match the filters are asked for (a page at most) and counted; `showNewer`
 * appends them. Before the end, Load more brings them anyway. An empty timeline just asks again.
 */
export function useAuditTimeline(filters: AuditFilters) {
  const queryClient = useQueryClient();
  const pages = useInfiniteQuery({ ...auditQueries.events(filters), meta: quiet });
  const head = useLiveHead();
  const events = useMemo(() => pages.data?.pages.flatMap((page) => page.events) ?? [], [pages.data]);
  const tail = events.at(-1)?.cursor ?? null;
  const atEnd = pages.isSuccess && !pages.hasNextPage;
  const behind = Boolean(atEnd && head && tail && isAfter(head, tail));

  const newer = useQuery({
    ...auditQueries.newer(filters, tail ?? '', head ?? ''),
    enabled: behind,
    // While a newer head is asked about, the count for the same last event stays on screen.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === tail ? previous : undefined),
    meta: quiet,
  });
  const newerEvents = behind ? (newer.data?.events ?? []) : [];

  // A live head over an empty timeline: the first page is simply asked again.
  const emptyAndBehind = Boolean(atEnd && head && !tail);
  const query = filtersQuery(filters);
  useEffect(() => {
    if (emptyAndBehind) void queryClient.invalidateQueries({ queryKey: auditKeys.events(query), exact: true });
  }, [emptyAndBehind, head, query, queryClient]);

  const showNewer = useCallback(() => {
    const page = newer.data;
    if (!page || !tail) return;
    queryClient.setQueryData<InfiniteData<EventPage, string | null>>(auditKeys.events(query), (old) =>
      old ? { pages: [...old.pages, page], pageParams: [...old.pageParams, tail] } : old,
    );
  }, [newer.data, query, queryClient, tail]);

  return {
    pages,
    events,
    /** How many newer events match, and whether there are more than a page of them. */
    newerCount: newerEvents.length,
    newerCapped: newerEvents.length === PAGE_SIZE,
    showNewer,
  };
}

export type AuditTimeline = ReturnType<typeof useAuditTimeline>;
