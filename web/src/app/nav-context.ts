/** The app-wide side-navigation actor. */
import { createActorContext } from '@xstate/react';
import { navMachine } from './nav.machine';

export const NavContext = createActorContext(navMachine);

/** Returns whether the navigation is pinned open. */
export const isNavOpen = (state: string) => state === 'open' || state === 'opened';
