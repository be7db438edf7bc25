/**
 * The areas whose pages show the side navigation: the spec's seven, and settings and the
 * full-page preview (the two it leaves unnamed), so neither is a page without a way back.
 * An unknown address shows it too (see shell/unknown-address.tsx).
 */
export const NAV_ROUTE_PREFIXES = ['/feeds', '/channels', '/search', '/needlbox', '/apps', '/notebooks', '/connect', '/settings', '/preview'] as const;

/** Returns whether the page at `pathname` shows the side navigation. */
export const showsSideNav = (pathname: string): boolean =>
  NAV_ROUTE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
