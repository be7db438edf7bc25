import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { connectedAppQueries, connectionOf, type ConnectedApp, type ConnectionKey } from '../api/apps-api';

/** How often a connection's state is asked again while a sync it asked for runs. */
export const SYNC_POLL_MS = 3_000;
/** How long a sync is waited for; past that the next visit shows what it did. */
export const SYNC_WAIT_MS = 90_000;

/** A sync asked for: what the connection said before it, and until when to wait. */
export interface SyncWatch {
  syncedAt: string | null;
  error: string | null;
  until: number;
}

/**
 * Returns what to wait on after a sync was asked for, from the state the server answered with
 * (the sync has not run yet: a reconnection has cleared the last failure, a sync has not).
 */
export const watchFrom = (app: ConnectedApp | undefined, now = Date.now()): SyncWatch => ({
  syncedAt: connectionOf(app)?.last_synced_at ?? null,
  error: connectionOf(app)?.last_error ?? null,
  until: now + SYNC_WAIT_MS,
});

/**
 * Whether a sync asked for is not over yet: the app is still connected, the wait is not over,
 * and a server is reading it now (a mailbox of several folders records each as it goes) or it
 * was not synced since and no new failure was recorded.
 */
export function awaitingSync(app: ConnectedApp | undefined, watch: SyncWatch | null, now = Date.now()): boolean {
  const connection = connectionOf(app);
  if (!watch || !connection || now >= watch.until) return false;
  if (connection.syncing) return true;
  return connection.last_synced_at === watch.syncedAt && connection.last_error === watch.error;
}

/**
 * A connected app's state. A sync runs in the background and is no event on the live socket, so
 * after one is asked for (`watchSync`, with the write's answer) the state is asked again every
 * few seconds until the sync is recorded, and the page shows its documents and time without a
 * reload.
 */
export function useConnectedApp(key: ConnectionKey) {
  const [watch, setWatch] = useState<SyncWatch | null>(null);
  const query = useQuery({
    ...connectedAppQueries.detail(key),
    refetchInterval: (q) => (awaitingSync(q.state.data, watch) ? SYNC_POLL_MS : false),
  });
  const watchSync = useCallback((asked: ConnectedApp) => setWatch(watchFrom(asked)), []);
  return { query, watchSync };
}
