/** Screen-size breakpoints and a hook to follow them. */
import { useSyncExternalStore } from 'react';

/** Phones. */
export const MOBILE_QUERY = '(max-width: 767px)';
/** Tablet and below. */
export const TABLET_QUERY = '(max-width: 1023px)';
/** Laptop-size and larger: overlays show and the overlay may reopen the navigation. */
export const LAPTOP_QUERY = '(min-width: 1024px)';

/** The user asked for less motion: scroll at once rather than smoothly. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

export const matches = (query: string): boolean =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;

/** Returns whether the media query matches, following changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => matches(query),
  );
}
