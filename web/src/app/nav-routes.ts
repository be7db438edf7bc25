/** The areas whose pages show the side navigation. */
export const NAV_ROUTE_PREFIXES = ['/feeds', '/channels', '/search', '/needlbox', '/apps', '/notebooks', '/connect'] as const;

/** Returns whether the page at `pathname` shows the side navigation. */
export const showsSideNav = (pathname: string): boolean =>
  NAV_ROUTE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
