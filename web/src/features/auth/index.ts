/**
 * Auth feature: the sign-in and sign-up pages, the forgotten-password pages (ask for a link,
 * choose a new password with it) and the 'Sign-In Required' prompt.
 * It owns the forms and their validation; the session itself and the auth calls live in
 * `src/lib` (session-store, auth) because the shell and settings use them too.
 * Depends on: src/lib, src/components/ui.
 */
export { SignInPage } from './components/sign-in-page';
export { SignUpPage } from './components/sign-up-page';
export { SignInRequiredModal } from './components/sign-in-required-modal';
export { ForgotPasswordPage } from './components/forgot-password-page';
export { ResetPasswordPage } from './components/reset-password-page';
