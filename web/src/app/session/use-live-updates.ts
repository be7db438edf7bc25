import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { applyLiveEvent, refreshQueries } from '../../lib/live-events';
import { createLiveSocket, type LiveStatus } from '../../lib/live-socket';
import { sessionStore } from '../../lib/session-store';
import { useSession } from '../../lib/use-session';

export type { LiveStatus };

/**
 * Keeps the live socket open while signed in and turns its events into cache invalidations.
 * Whenever the socket opens, first time included, every query is refreshed: data fetched
 * before the socket was listening (or while it was away), or still being fetched when it
 * opened, may already be out of date.
 */
export function useLiveUpdates(): LiveStatus {
  const queryClient = useQueryClient();
  const signedIn = Boolean(useSession().token);
  const [status, setStatus] = useState<LiveStatus>('connecting');

  useEffect(() => {
    if (!signedIn) return;
    const live = createLiveSocket({
      token: () => sessionStore.get().token,
      onEvent: (event) => void applyLiveEvent(queryClient, event),
      onOpen: () => void refreshQueries(queryClient),
      onStatus: setStatus,
    });
    live.start();
    return () => {
      live.stop();
      setStatus('connecting');
    };
  }, [queryClient, signedIn]);

  return status;
}
