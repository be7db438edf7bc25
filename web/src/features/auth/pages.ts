/** The auth pages, a second entry to the feature: the app loads them on demand. */
export { SignInPage } from './components/sign-in-page';
export { SignUpPage } from './components/sign-up-page';
export { ForgotPasswordPage } from './components/forgot-password-page';
export { ResetPasswordPage } from './components/reset-password-page';
export { OAuthRedirectPage } from './components/oauth-redirect-page';
