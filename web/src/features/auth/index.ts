/**
 * Auth feature: the sign-in and sign-up pages, the forgotten-password pages (ask for a link,
 * choose a new password with it), the 'Sign-In Required' prompt, and sign-in with the
 * organisation's identity provider (the button on sign-in, the words for its failures, and the
 * `/oauth/redirect` page that takes over the session the server started).
 * It owns the forms and their validation; the session itself and the auth calls live in
 * `src/lib` (session-store, auth) because the shell and settings use them too. Sign-in says why
 * the last session ended when the page that ended it left a notice (lib/sign-in-notice).
 * The pages are a second entry, `pages.ts`, which the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export { SignInRequiredModal } from './components/sign-in-required-modal';
