/**
 * Sign-in with the organisation's identity provider (OpenID Connect). The browser leaves for
 * `/api/auth/oidc/start`, the server talks to the provider, and the browser comes back either to
 * `/oauth/redirect` with a token in the address's fragment or to sign-in with `?sso_error=CODE`.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { AuthResponse } from '../../../lib/api-client';
import { broadcastAuth } from '../../../lib/auth-channel';
import { OAUTH_SIGNIN_KEY, REDIRECT_URI_KEY } from '../../../lib/redirect-storage';
import { sessionStore } from '../../../lib/session-store';

export interface OidcConfig {
  enabled: boolean;
  /** The provider's name on the button, "Sign in with {label}". */
  label: string | null;
}

export const oidcQueries = {
  config: () =>
    queryOptions({
      queryKey: ['auth', 'oidc-config'] as const,
      queryFn: () => api.get<OidcConfig>('/auth/oidc/config'),
      staleTime: Infinity,
      // Without the answer the page offers the email form alone; nothing to announce.
      meta: { toast: false },
    }),
};

/**
 * Returns `path` when it is an address of this app (one leading slash, no backslash), else `/`:
 * the same rule the server applies, so a crafted link cannot send a person to another site.
 */
export function safeRedirect(path: string | null | undefined): string {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return '/';
  return path;
}

/**
 * Returns where the browser goes to sign in at the provider, and notes (the spec's `oauth-signin`
 * marker) that a provider sign-in is under way. The page to come back to is the address saved
 * before sign-in, if any (it stays saved, and the first authenticated load consumes it as usual),
 * else `home`, where the sign-in page's variant goes after login.
 */
export function beginOrganisationSignIn(storage: Storage = localStorage, saved: Storage = sessionStorage, home = '/'): string {
  storage.setItem(OAUTH_SIGNIN_KEY, 'true');
  const redirect = safeRedirect(saved.getItem(REDIRECT_URI_KEY) ?? home);
  return `/api/auth/oidc/start?redirect=${encodeURIComponent(redirect)}`;
}

/** What the server put in `/oauth/redirect`'s fragment. */
export interface SignInHandoff {
  token: string | null;
  redirect: string;
}

/** Reads the fragment (`#token=..&expires_at=..&redirect=..`, form-encoded). */
export function readHandoff(hash: string): SignInHandoff {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { token: params.get('token') || null, redirect: safeRedirect(params.get('redirect')) };
}

/**
 * Makes the handed-over token this browser's session. The token is exchanged for a fresh one
 * (`/auth/refresh`), which also brings the user as sign-in does (`GET /user` lacks the roles) and
 * retires the token that passed through the address bar once its grace is over. The marker is
 * cleared first, so the login is announced to other tabs once, here.
 */
export async function completeOrganisationSignIn(token: string): Promise<AuthResponse> {
  const auth = await api.post<AuthResponse>('/auth/refresh', { token });
  localStorage.removeItem(OAUTH_SIGNIN_KEY);
  sessionStore.signIn(auth.token, auth.user);
  broadcastAuth({ type: 'login' });
  return auth;
}
