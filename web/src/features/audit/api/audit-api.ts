/**
 * Calls and queries for the audit log (/audit): the event feed with its filters, one aggregate's
 * history and its state as of a point, the NDJSON export, and the hash chain with its
 * checkpoints. Answers are checked with zod, so a server that drifts from the contract fails
 * loudly here rather than in a component.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { auditKeys } from '../../../lib/queries/audit-keys';
import { filtersQuery, type AuditFilters } from '../audit-filters';

/** Events a timeline page asks for. */
export const PAGE_SIZE = 50;

const metadataSchema = z.object({
  user_id: z.string().nullish(),
  request_id: z.string().nullish(),
  app_type: z.string().nullish(),
  request_origin: z.string().nullish(),
  time: z.string().nullish(),
});

const eventSchema = z.object({
  /** `tx-pos`: where the event sits in the feed. */
  cursor: z.string(),
  aggregate_type: z.string(),
  aggregate_id: z.string(),
  sequence: z.number().int(),
  event_type: z.string(),
  event_version: z.union([z.string(), z.number()]),
  /** As stored: cqrs-es writes an event as `{"Variant": {fields}}`. Secrets read "[redacted]". */
  payload: z.unknown(),
  metadata: metadataSchema.nullish().transform((m) => m ?? {}),
  recorded_at: z.string(),
  /** The acting user's name; null for the system or a user since removed. */
  actor_name: z.string().nullish(),
});

export type StoredEvent = z.infer<typeof eventSchema>;

const pageSchema = z.object({
  events: z.array(eventSchema),
  /**
   * Where the next page starts: as `before` after a newest-first page (null when nothing older
   * is left), as `after` after one in feed order (null when the page is empty).
   */
  next: z.string().nullish(),
});

export type EventPage = z.infer<typeof pageSchema>;

const stateSchema = z.object({
  aggregate_type: z.string(),
  aggregate_id: z.string(),
  as_of: z.object({ cursor: z.string(), time: z.string() }),
  sequence: z.number().int(),
  state: z.unknown(),
  events: z.array(eventSchema),
});

export type AggregateState = z.infer<typeof stateSchema>;

const checkpointSchema = z.object({
  position: z.number().int(),
  hash: z.string(),
  created_at: z.string(),
  signature: z.string().nullish(),
  public_key: z.string().nullish(),
});

export type Checkpoint = z.infer<typeof checkpointSchema>;

const chainSchema = z.object({
  status: z.enum(['intact', 'broken', 'empty']),
  events_checked: z.number().int(),
  head: z.object({ position: z.number().int(), hash: z.string() }).nullish(),
  first_break: z.object({ position: z.number().int(), reason: z.string() }).nullish(),
  verified_at: z.string(),
  checkpoints: z.array(checkpointSchema).default([]),
});

export type ChainStatus = z.infer<typeof chainSchema>;

/** A point in an aggregate's history: after one of its events, or at a moment. */
export type HistoryPoint = { at: string } | { time: string };

/** Returns the query string (without `?`) that names `point`. */
export const pointQuery = (point: HistoryPoint): string =>
  new URLSearchParams('at' in point ? { at: point.at } : { time: point.time }).toString();

const aggregatePath = (type: string, id: string) =>
  `/audit/aggregates/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

/**
 * Where a page of events starts: newest first before a cursor (from the newest event when null),
 * as the timeline reads; or in feed order after a cursor, as the live banner counts what is newer.
 */
export type EventsFrom = { before: string | null } | { after: string };

/** Returns the path (under /api) of the page of events from `from` that match `filters`. */
export function eventsPath(filters: AuditFilters, from: EventsFrom, limit = PAGE_SIZE): string {
  const params = new URLSearchParams(filtersQuery(filters));
  if ('after' in from) {
    params.set('after', from.after);
  } else {
    params.set('order', 'newest');
    if (from.before) params.set('before', from.before);
  }
  params.set('limit', String(limit));
  return `/audit/events?${params.toString()}`;
}

/** Returns the path (under /api) of the NDJSON export of the events that match `filters`. */
export function exportPath(filters: AuditFilters): string {
  const query = filtersQuery(filters);
  return query ? `/audit/export?${query}` : '/audit/export';
}

export const fetchEvents = async (filters: AuditFilters, from: EventsFrom, signal?: AbortSignal, limit?: number) =>
  pageSchema.parse(await api.get<unknown>(eventsPath(filters, from, limit), { signal }));

/** Fetches the export with the token (a plain link would lack it). */
export const fetchExport = (filters: AuditFilters) => api.getFile(exportPath(filters));

export const verifyChain = async () => chainSchema.parse(await api.post<unknown>('/audit/chain/verify'));

export const createCheckpoint = async () => checkpointSchema.parse(await api.post<unknown>('/audit/checkpoints'));

export const auditQueries = {
  /** The timeline: pages newest first, each before the last (oldest) event of the one before, until the server says none is older. */
  events: (filters: AuditFilters) =>
    infiniteQueryOptions({
      queryKey: auditKeys.events(filtersQuery(filters)),
      initialPageParam: null as string | null,
      queryFn: ({ pageParam, signal }) => fetchEvents(filters, { before: pageParam }, signal),
      getNextPageParam: (last) => last.next ?? undefined,
    }),
  /** Events after `cursor` matching `filters`, in feed order and at most a page, once the feed's head is `head`: what the live banner counts. */
  newer: (filters: AuditFilters, cursor: string, head: string) =>
    queryOptions({
      queryKey: auditKeys.newer(filtersQuery(filters), cursor, head),
      queryFn: ({ signal }) => fetchEvents(filters, { after: cursor }, signal),
    }),
  history: (type: string, id: string) =>
    queryOptions({
      queryKey: auditKeys.history(type, id),
      queryFn: async ({ signal }) => pageSchema.parse(await api.get<unknown>(aggregatePath(type, id), { signal })),
    }),
  state: (type: string, id: string, point: HistoryPoint) =>
    queryOptions({
      queryKey: auditKeys.state(type, id, pointQuery(point)),
      queryFn: async ({ signal }) =>
        stateSchema.parse(await api.get<unknown>(`${aggregatePath(type, id)}/state?${pointQuery(point)}`, { signal })),
      // The state after an event does not change; as of a moment it may, while the moment is to come.
      staleTime: 'at' in point ? Infinity : 0,
    }),
  chain: () =>
    queryOptions({
      queryKey: auditKeys.chain(),
      queryFn: async ({ signal }) => chainSchema.parse(await api.get<unknown>('/audit/chain', { signal })),
    }),
};
