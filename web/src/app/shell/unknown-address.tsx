import { createContext, useContext, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { showsSideNav } from '../nav-routes';

interface UnknownAddress {
  unknown: boolean;
  setUnknown: (unknown: boolean) => void;
}

const UnknownAddressContext = createContext<UnknownAddress>({ unknown: false, setUnknown: () => {} });

/**
 * Lets the catch-all page tell the shell, which sits above the pages, that nothing lives at the
 * address: the shell then titles it "Page not found" and keeps the side navigation, so a
 * mistyped or stale link is never a dead end.
 */
export function UnknownAddressProvider({ children }: { children: ReactNode }) {
  const [unknown, setUnknown] = useState(false);
  const value = useMemo(() => ({ unknown, setUnknown }), [unknown]);
  return <UnknownAddressContext.Provider value={value}>{children}</UnknownAddressContext.Provider>;
}

/** Returns whether the page shown says nothing lives at the address. */
export const useUnknownAddress = (): boolean => useContext(UnknownAddressContext).unknown;

/** Marks the address unknown while the calling page is shown (before the first paint). */
export function useMarkUnknownAddress(): void {
  const { setUnknown } = useContext(UnknownAddressContext);
  useLayoutEffect(() => {
    setUnknown(true);
    return () => setUnknown(false);
  }, [setUnknown]);
}

/** Returns whether the current page shows the side navigation: its area does, or it is unknown. */
export function useShowsSideNav(): boolean {
  const { pathname } = useLocation();
  const unknown = useUnknownAddress();
  return unknown || showsSideNav(pathname);
}
