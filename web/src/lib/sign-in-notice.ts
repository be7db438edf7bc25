/**
 * A notice for the sign-in page, left by the page that ended the session for a reason the person
 * should read there (their account was erased). It is kept in session storage, like the address
 * to return to, because the way to sign-in goes through the router's guard, which carries no
 * message; the sign-in page reads it once and forgets it.
 */

export const SIGN_IN_NOTICE_KEY = 'needl.signInNotice';

const NOTICES = ['account_erased'] as const;

export type SignInNotice = (typeof NOTICES)[number];

const isNotice = (value: string | null): value is SignInNotice => NOTICES.some((notice) => notice === value);

/** Leaves `notice` for the sign-in page. */
export function leaveSignInNotice(notice: SignInNotice, storage: Storage = sessionStorage): void {
  storage.setItem(SIGN_IN_NOTICE_KEY, notice);
}

/** Returns the notice left for the sign-in page, or null (also for a value this version does not know). */
export function readSignInNotice(storage: Storage = sessionStorage): SignInNotice | null {
  const value = storage.getItem(SIGN_IN_NOTICE_KEY);
  return isNotice(value) ? value : null;
}

/** Forgets the notice, once the sign-in page has shown it. */
export function clearSignInNotice(storage: Storage = sessionStorage): void {
  storage.removeItem(SIGN_IN_NOTICE_KEY);
}
