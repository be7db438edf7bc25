/**
 * Query keys for the audit log, from general to specific. They live here rather than in the audit
 * feature because the live socket (src/lib) records the feed's head under `head()`.
 */
export const auditKeys = {
  all: () => ['audit'] as const,
  /** Pages of the event timeline, newest first; `filters` is the query string the filters make. */
  events: (filters: string) => [...auditKeys.all(), 'events', filters] as const,
  /** The events after `cursor` that match `filters`, asked again for each new `head`: what the live banner counts. */
  newer: (filters: string, cursor: string, head: string) => [...auditKeys.all(), 'newer', filters, cursor, head] as const,
  aggregates: () => [...auditKeys.all(), 'aggregate'] as const,
  /** One aggregate's whole history. */
  history: (type: string, id: string) => [...auditKeys.aggregates(), type, id, 'history'] as const,
  /** One aggregate's state as of a point (`at=<cursor>` or `time=<RFC 3339>`). */
  state: (type: string, id: string, point: string) => [...auditKeys.aggregates(), type, id, 'state', point] as const,
  /** The hash chain's verification and its checkpoints. */
  chain: () => [...auditKeys.all(), 'chain'] as const,
  /** The newest cursor the live socket announced; never fetched, only written by the socket. */
  head: () => [...auditKeys.all(), 'head'] as const,
};
