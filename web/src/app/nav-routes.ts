/**
 * The areas whose pages show the side navigation: the spec's seven, and settings and the
 * full-page preview (the two it leaves unnamed), so neither is a page without a way back.
 * An unknown address shows it too (see shell/unknown-address.tsx).
 */
export const NAV_ROUTE_PREFIXES = ['/feeds', '/channels', '/search', '/needlbox', '/apps', '/notebooks', '/connect', '/settings', '/preview'] as const;

/**
 * The spec's full-page routes that the shell shows bare: the page alone under a bar with the way
 * back, without the side navigation, the header or the Ask button (a search opened on its own,
 * one document or one image).
 */
export const FULL_PAGE_ROUTES = ['/search/full', '/document', '/image'] as const;

/** Returns whether the page at `pathname` is shown bare (see FULL_PAGE_ROUTES). */
export const isFullPage = (pathname: string): boolean =>
  (FULL_PAGE_ROUTES as readonly string[]).includes(pathname.replace(/(.)\/+$/, '$1'));

/** Returns whether the page at `pathname` shows the side navigation. */
export const showsSideNav = (pathname: string): boolean =>
  !isFullPage(pathname) && NAV_ROUTE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
