/**
 * Where a signed-out visitor was going, kept in session storage so sign-in can return there,
 * and the marker of the first authenticated load of this browser session.
 */

export const REDIRECT_URI_KEY = 'redirectUri';
export const FIRST_LOAD_KEY = 'isFirstAuthenticatedAppLoadDone';
/** Set in local storage for non-default app types, to pick the page shown after logout. */
export const APP_TYPE_KEY = 'appType';
/** A leftover of an identity-provider sign-in; cleared once signed in. */
export const OAUTH_SIGNIN_KEY = 'oauth-signin';

const AFTER_LOGOUT_TARGETS: Record<string, string> = { pulse: '/pulse/auth/signin' };

/** Saves the address a signed-out visitor asked for, unless it is an /auth page. */
export function saveRedirect(address: string, storage: Storage = sessionStorage): void {
  if (address === '/auth' || address.startsWith('/auth/')) return;
  storage.setItem(REDIRECT_URI_KEY, address);
}

export const isFirstLoadDone = (storage: Storage = sessionStorage): boolean => storage.getItem(FIRST_LOAD_KEY) === 'true';

/** Marks the first authenticated load done and returns (and clears) the saved address, once per session. */
export function consumeFirstLoadRedirect(storage: Storage = sessionStorage): string | null {
  if (isFirstLoadDone(storage)) return null;
  storage.setItem(FIRST_LOAD_KEY, 'true');
  const address = storage.getItem(REDIRECT_URI_KEY);
  storage.removeItem(REDIRECT_URI_KEY);
  return address;
}

/** Forgets the first-load marker, so the next sign-in returns to a saved address again. */
export function resetFirstLoad(storage: Storage = sessionStorage): void {
  storage.removeItem(FIRST_LOAD_KEY);
}

/** Returns where a signed-out visitor is sent: the stored app type's target (then forgotten) or sign-in. */
export function signedOutTarget(storage: Storage = localStorage): string {
  const appType = storage.getItem(APP_TYPE_KEY);
  const target = appType ? AFTER_LOGOUT_TARGETS[appType] : undefined;
  if (target) {
    storage.removeItem(APP_TYPE_KEY);
    return target;
  }
  return '/auth/signin';
}
