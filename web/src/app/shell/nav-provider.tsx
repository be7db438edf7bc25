import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { LAPTOP_QUERY, matches, TABLET_QUERY, useMediaQuery } from '../../lib/media';
import { useUpdatePreferences } from '../../lib/queries/use-update-preferences';
import { userQueries, type NavStatePreference } from '../../lib/queries/user-queries';
import { NavContext } from '../nav-context';
import { initialNavSnapshot, navMachine } from '../nav.machine';
import { useShowsSideNav } from './unknown-address';

/**
 * Starts the side-navigation actor once the saved `nav_state` is known, and saves each choice the
 * user makes back to the preferences.
 */
export function NavProvider({ children }: { children: ReactNode }) {
  const preferences = useQuery(userQueries.preferences());
  if (preferences.isPending) return <FullPageSpinner />;
  return <NavActor initial={preferences.data?.nav_state ?? null}>{children}</NavActor>;
}

function NavActor({ initial, children }: { initial: NavStatePreference; children: ReactNode }) {
  const { pathname } = useLocation();
  const update = useUpdatePreferences();
  const save = useRef(update.mutate);
  save.current = update.mutate;

  const [actor] = useState(() => {
    const logic = navMachine.provide({
      actions: { persistNavState: (_, { navState }) => save.current({ nav_state: navState }) },
    });
    const input = { pathname, isTablet: matches(TABLET_QUERY), isLaptopUp: matches(LAPTOP_QUERY), initial };
    return { logic, options: { input, snapshot: initialNavSnapshot(logic, input) } };
  });

  return (
    <NavContext.Provider logic={actor.logic} options={actor.options}>
      <NavSync />
      {children}
    </NavContext.Provider>
  );
}

/** Keeps the actor told of the current route and screen size, and closes a drawer on a new page. */
function NavSync() {
  const nav = NavContext.useActorRef();
  const { pathname } = useLocation();
  const showsNav = useShowsSideNav();
  const isLaptopUp = useMediaQuery(LAPTOP_QUERY);
  // A drawer closes when the user goes to another page (a link in it, or Back); before the route
  // is told, as a page without the navigation would refuse the close.
  useEffect(() => {
    if (!matches(LAPTOP_QUERY)) nav.send({ type: 'nav.close' });
  }, [nav, pathname]);
  useEffect(() => nav.send({ type: 'nav.route', pathname, showsNav }), [nav, pathname, showsNav]);
  useEffect(() => nav.send({ type: 'nav.viewport', isLaptopUp }), [nav, isLaptopUp]);
  return null;
}
