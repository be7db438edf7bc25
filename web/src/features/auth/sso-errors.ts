/**
 * The words for each code the server sends back to sign-in (`?sso_error=CODE`) when signing in
 * with the organisation's identity provider failed. The codes are the server's
 * (api/src/routes/oidc.rs); one it does not list here gets the general retry sentence.
 */

const RETRY = "That sign-in didn't complete. Please try again.";

const SSO_ERROR_TEXT: Record<string, string> = {
  oidc_denied: "Your organisation's sign-in was cancelled or refused. Try again, or ask your administrator.",
  oidc_sign_in_expired: RETRY,
  oidc_code_missing: RETRY,
  oidc_state_mismatch: RETRY,
  oidc_code_refused: RETRY,
  oidc_no_id_token: "Your organisation's sign-in answered in a way we couldn't check. Please try again.",
  oidc_id_token_invalid: "Your organisation's sign-in answered in a way we couldn't check. Please try again.",
  oidc_email_unverified: "Your identity provider hasn't verified your email address.",
  oidc_no_email: "Your identity provider didn't share your email address, which we need to sign you in. Ask your administrator.",
  oidc_domain_not_allowed: "Your organisation's sign-in isn't set up for this email address. Ask your administrator.",
  oidc_provider_unavailable: "We couldn't reach your organisation's sign-in. Try again in a moment.",
  oidc_session_failed: "You were signed in at your organisation, but your session here couldn't start. Please try again.",
  oidc_not_configured: "Signing in with your organisation isn't set up here. Sign in with your email instead.",
};

/** Returns the sentence for `code`, or null when there is no code. */
export function ssoErrorText(code: string | null): string | null {
  if (!code) return null;
  return Object.hasOwn(SSO_ERROR_TEXT, code) ? SSO_ERROR_TEXT[code] : RETRY;
}
