/**
 * Auth feature: the sign-in and sign-up pages and the 'Sign-In Required' prompt.
 * It owns the forms and their validation; the session itself and the auth calls live in
 * `src/lib` (session-store, auth) because the shell and settings use them too.
 * Depends on: src/lib, src/components/ui.
 */
export { SignInPage } from './components/sign-in-page';
export { SignUpPage } from './components/sign-up-page';
export { SignInRequiredModal } from './components/sign-in-required-modal';
