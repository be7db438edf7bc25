import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { isAfter } from '../../../lib/live-audit';
import { auditKeys } from '../../../lib/queries/audit-keys';
import type { ToastMeta } from '../../../lib/query-client';
import { auditQueries, PAGE_SIZE, type EventPage } from '../api/audit-api';
import { filtersQuery, type AuditFilters } from '../audit-filters';

const quiet = { toast: false } satisfies ToastMeta;

type Timeline = InfiniteData<EventPage, string | null>;

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
 * The timeline newest first, paged back in time with the cursor, and what the live socket says is
 * newer. When the socket announces a head beyond the newest event shown, the events after it that
 * match the filters are asked for (a page at most) and counted; `showNewest` puts them on top, or,
 * when there are more than a page of them, starts the timeline again from the newest. An empty
 * timeline just asks again.
 */
export function useAuditTimeline(filters: AuditFilters) {
  const queryClient = useQueryClient();
  const pages = useInfiniteQuery({ ...auditQueries.events(filters), meta: quiet });
  const head = useLiveHead();
  const events = useMemo(() => pages.data?.pages.flatMap((page) => page.events) ?? [], [pages.data]);
  const top = events[0]?.cursor ?? null;
  const behind = Boolean(pages.isSuccess && head && top && isAfter(head, top));

  const newer = useQuery({
    ...auditQueries.newer(filters, top ?? '', head ?? ''),
    enabled: behind,
    // While a newer head is asked about, the count for the same newest event stays on screen.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === top ? previous : undefined),
    meta: quiet,
  });
  const newerEvents = behind ? (newer.data?.events ?? []) : [];
  const newerCapped = newerEvents.length === PAGE_SIZE;

  // A live head over an empty timeline: the first page is simply asked again.
  const emptyAndBehind = Boolean(pages.isSuccess && head && !top);
  const query = filtersQuery(filters);
  useEffect(() => {
    if (emptyAndBehind) void queryClient.invalidateQueries({ queryKey: auditKeys.events(query), exact: true });
  }, [emptyAndBehind, head, query, queryClient]);

  const showNewest = useCallback(() => {
    const page = newer.data;
    if (!page || !top) return;
    const key = auditKeys.events(query);
    if (page.events.length < PAGE_SIZE) {
      // Every newer event is at hand: they go on top, newest first, and the pages below stay.
      const above = [...page.events].reverse();
      queryClient.setQueryData<Timeline>(key, (old) =>
        old ? { ...old, pages: old.pages.map((p, i) => (i === 0 ? { ...p, events: [...above, ...p.events] } : p)) } : old,
      );
      return;
    }
    // More than a page is newer, so the gap is not filled: the timeline starts again from the newest.
    queryClient.setQueryData<Timeline>(key, (old) =>
      old ? { pages: old.pages.slice(0, 1), pageParams: old.pageParams.slice(0, 1) } : old,
    );
    void queryClient.invalidateQueries({ queryKey: key, exact: true });
  }, [newer.data, query, queryClient, top]);

  return {
    pages,
    events,
    /** How many newer events match, and whether there are more than a page of them. */
    newerCount: newerEvents.length,
    newerCapped,
    showNewest,
  };
}

export type AuditTimeline = ReturnType<typeof useAuditTimeline>;
