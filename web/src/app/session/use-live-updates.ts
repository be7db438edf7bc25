import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { applyLiveEvent } from '../../lib/live-events';
import { createLiveSocket, type LiveStatus } from '../../lib/live-socket';
import { sessionStore } from '../../lib/session-store';
import { useSession } from '../../lib/use-session';

export type { LiveStatus };

/**
 * Keeps the live socket open while signed in and turns its events into cache invalidations.
 * After a reconnect every query is invalidated, in case the server could not replay the gap.
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
      onOpen: (reconnected) => {
        if (reconnected) void queryClient.invalidateQueries();
      },
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
