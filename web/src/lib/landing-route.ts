/** The route a signed-in user lands on: decided by the first enabled feature in the spec's order. */

export type FeatureFlags = Record<string, boolean>;

/** Features in the order they are considered, each with the route it lands on. */
export const LANDING_ROUTES: ReadonlyArray<readonly [feature: string, route: string]> = [
  ['my_data', '/feeds/home'],
  ['search', '/search'],
  ['ask_needl_full_screen', '/ask-needl/full'],
  ['bookmarks', '/needlbox/bookmarks/all'],
  ['tags', '/needlbox/tags/all'],
  ['comments', '/needlbox/comments/all'],
  ['assistants', '/managers/assistants'],
  ['report_generation', '/managers/report_generation/dashboard'],
  ['needl_report', '/report'],
];

export const FALLBACK_LANDING_ROUTE = '/feeds/home';

/** Returns whether My Data is where the user lands, so the landing route needs its suffix. */
export function landsOnMyData(features: FeatureFlags): boolean {
  const first = LANDING_ROUTES.find(([feature]) => features[feature]);
  return !first || first[0] === 'my_data';
}

/**
 * Returns My Data's suffix: `/` and the first connected source type in the server's order
 * (`/rss_news`), or '' when none is connected (My Data then shows how to connect one).
 */
export function myDataSuffix(subCategories: ReadonlyArray<{ key: string; connected: boolean }>): string {
  const first = subCategories.find((s) => s.connected);
  return first ? `/${first.key}` : '';
}

/** Returns the landing route; `myDataSuffix` is the first connected source type (e.g. `/rss_news`). */
export function landingRoute(features: FeatureFlags, myDataSuffix = ''): string {
  const first = LANDING_ROUTES.find(([feature]) => features[feature]);
  if (!first) return FALLBACK_LANDING_ROUTE;
  return first[0] === 'my_data' ? `${first[1]}${myDataSuffix}` : first[1];
}
