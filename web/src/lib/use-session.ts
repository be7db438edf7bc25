import { useSyncExternalStore } from 'react';
import { sessionStore, type Session } from './session-store';

/** Returns this page's session, re-rendering when it changes. */
export function useSession(): Session {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}
