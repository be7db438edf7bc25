import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { connectedAppQueries, MAIL_APP, type ConnectedApp } from '../api/apps-api';

/** How often the mailbox's state is asked again while a sync it asked for runs. */
export const SYNC_POLL_MS = 3_000;
/** How long a sync is waited for; past that the next visit shows what it did. */
export const SYNC_WAIT_MS = 90_000;

/** A sync asked for: what the mailbox said before it, and until when to wait. */
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
  syncedAt: app?.mail?.last_synced_at ?? null,
  error: app?.mail?.last_error ?? null,
  until: now + SYNC_WAIT_MS,
});

/**
 * Whether a sync asked for is not over yet: the mailbox is still connected, the wait is not over,
 * and a server is reading it now (a mailbox of several folders records each as it goes) or it
 * was not synced since and no new failure was recorded.
 */
export function awaitingSync(app: ConnectedApp | undefined, watch: SyncWatch | null, now = Date.now()): boolean {
  if (!watch || !app?.mail || now >= watch.until) return false;
  if (app.mail.syncing) return true;
  return app.mail.last_synced_at === watch.syncedAt && app.mail.last_error === watch.error;
}

/**
 * The mail app's state. A sync runs in the background and is no event on the live socket, so
 * after one is asked for (`watchSync`, with the write's answer) the state is asked again every
 * few seconds until the sync is recorded, and the page shows its documents and time without a
 * reload.
 */
export function useMailApp() {
  const [watch, setWatch] = useState<SyncWatch | null>(null);
  const query = useQuery({
    ...connectedAppQueries.detail(MAIL_APP),
    refetchInterval: (q) => (awaitingSync(q.state.data, watch) ? SYNC_POLL_MS : false),
  });
  const watchSync = useCallback((asked: ConnectedApp) => setWatch(watchFrom(asked)), []);
  return { query, watchSync };
}
