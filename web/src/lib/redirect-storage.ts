/**
 * Where a signed-out visitor was going, kept in session storage so sign-in can return there,
 * and the marker of the first authenticated load of this browser session.
 */
import { afterLogoutTarget, APP_TYPE_KEY, signInPath, storedVariant, variantOf } from './variant';

export const REDIRECT_URI_KEY = 'redirectUri';
export const FIRST_LOAD_KEY = 'isFirstAuthenticatedAppLoadDone';
/** A leftover of an identity-provider sign-in; cleared once signed in. */
export const OAUTH_SIGNIN_KEY = 'oauth-signin';

/** Saves the address a signed-out visitor asked for, unless it is a sign-in page (`/auth`, `/pulse/auth`). */
export function saveRedirect(address: string, storage: Storage = sessionStorage): void {
  if (/^(\/pulse)?\/auth(\/|$|\?|#)/.test(address)) return;
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

/**
 * Returns where a signed-out visitor at `pathname` is sent: a pulse address to the pulse sign-in;
 * any other to the stored app type's after-logout target (the type then forgotten), else sign-in.
 */
export function signedOutTarget(storage: Storage = localStorage, pathname = ''): string {
  if (variantOf(pathname) === 'pulse') return signInPath('pulse');
  const variant = storedVariant(storage);
  if (variant !== 'default') {
    storage.removeItem(APP_TYPE_KEY);
    return afterLogoutTarget(variant);
  }
  return signInPath('default');
}
