/** Where the onboarding page goes when it is done: the `redirect` it was given, else home. */

export const ONBOARDING_PATH = '/onboarding';

/**
 * Returns the address in the `redirect` parameter of `search` when it is a page of this app (a
 * path, not another site's address nor the onboarding page itself), else `/`, whose landing
 * route the user's features decide.
 */
export function onboardingTarget(search: string): string {
  const redirect = new URLSearchParams(search).get('redirect')?.trim() ?? '';
  const ownPage = redirect.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/\\');
  if (!ownPage) return '/';
  const path = redirect.split(/[?#]/, 1)[0].replace(/\/+$/, '');
  return path === ONBOARDING_PATH ? '/' : redirect;
}
