/**
 * The audit log's live message, `{"type": "audit", "head": "<cursor>"}`: new events were appended
 * to the feed, up to `head`. Everything about its shape lives in this file, so a change on the
 * server is one change here. The head is kept in the query cache under `auditKeys.head()`; the
 * audit timeline compares it with the last event it shows and asks for what is newer itself
 * ("sockets notify, queries fetch").
 */
import type { QueryClient } from '@tanstack/react-query';
import { auditKeys } from './queries/audit-keys';

export const AUDIT_LIVE_TYPE = 'audit';

/** Returns the head cursor an audit message carries, or null when `message` is not one. */
export function auditHeadOf(message: { type?: unknown; head?: unknown }): string | null {
  if (message.type !== AUDIT_LIVE_TYPE || typeof message.head !== 'string') return null;
  return parseCursor(message.head) ? message.head : null;
}

/** A feed cursor, `tx-pos`: the transaction, then the position in the feed. */
export interface FeedPosition {
  tx: number;
  pos: number;
}

/** Returns the two numbers of a `tx-pos` cursor, or null when it is not one. */
export function parseCursor(cursor: string): FeedPosition | null {
  const match = /^(\d+)-(\d+)$/.exec(cursor);
  return match ? { tx: Number(match[1]), pos: Number(match[2]) } : null;
}

/**
 * Returns whether cursor `a` comes after cursor `b` in feed order (transaction first, then
 * position); false when either is not a cursor.
 */
export function isAfter(a: string, b: string): boolean {
  const x = parseCursor(a);
  const y = parseCursor(b);
  if (!x || !y) return false;
  return x.tx !== y.tx ? x.tx > y.tx : x.pos > y.pos;
}

/** Records the head an audit message announces, keeping the newest (messages may arrive out of order after a reconnect). */
export function noteAuditHead(queryClient: QueryClient, head: string): void {
  const known = queryClient.getQueryData<string>(auditKeys.head());
  if (known && !isAfter(head, known)) return;
  queryClient.setQueryData(auditKeys.head(), head);
}
