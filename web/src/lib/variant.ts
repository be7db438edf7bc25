/**
 * The app's two variants: the default app and pulse, a phone-first variant with its own sign-in,
 * WhatsApp number verification and portfolio pages. The variant is the address's first segment
 * (`/pulse/...` is pulse, anything else the default app). A pulse page notes `appType` in local
 * storage, so a visitor whose session ends is sent back to the pulse sign-in even from an address
 * that does not say so (redirect-storage's `signedOutTarget`).
 */

export type AppVariant = 'default' | 'pulse';

/** Set in local storage for non-default app types, to pick the page shown after logout. */
export const APP_TYPE_KEY = 'appType';

/** The pulse variant's pages. */
export const PULSE_PATHS = {
  home: '/pulse',
  signIn: '/pulse/auth/signin',
  profile: '/pulse/settings/user-settings',
  verify: '/pulse/whatsapp-verification',
  portfolio: '/pulse/update-portfolio',
} as const;

/** Addresses that belong to neither variant: the organisation sign-in passes through them for both. */
const NEUTRAL_SEGMENTS = new Set(['oauth']);

const firstSegment = (pathname: string) => pathname.split('/').find(Boolean) ?? '';

/** Returns the variant an address belongs to: its first segment. */
export const variantOf = (pathname: string): AppVariant => (firstSegment(pathname) === 'pulse' ? 'pulse' : 'default');

/** Returns the variant local storage notes (the default app when it notes none, or one it does not know). */
export const storedVariant = (storage: Storage = localStorage): AppVariant =>
  storage.getItem(APP_TYPE_KEY) === 'pulse' ? 'pulse' : 'default';

/**
 * Notes the variant of the address the app is at: a pulse address stores `appType`; a default
 * address forgets it once the visitor is signed in and so is using the default app (signed out,
 * the stored value still has to send them to the pulse sign-in). The organisation sign-in's
 * return addresses keep what is stored.
 */
export function syncVariant(pathname: string, signedIn: boolean, storage: Storage = localStorage): void {
  if (NEUTRAL_SEGMENTS.has(firstSegment(pathname))) return;
  if (variantOf(pathname) === 'pulse') storage.setItem(APP_TYPE_KEY, 'pulse');
  else if (signedIn) storage.removeItem(APP_TYPE_KEY);
}

/** Returns where a variant goes after signing in: `/` for the default app, the profile page for pulse. */
export const afterLoginTarget = (variant: AppVariant): string => (variant === 'pulse' ? PULSE_PATHS.profile : '/');

/** Returns where a variant goes after signing out: `/` for the default app, its sign-in page for pulse. */
export const afterLogoutTarget = (variant: AppVariant): string => (variant === 'pulse' ? PULSE_PATHS.signIn : '/');

/** Returns a variant's sign-in page. */
export const signInPath = (variant: AppVariant): string => (variant === 'pulse' ? PULSE_PATHS.signIn : '/auth/signin');
