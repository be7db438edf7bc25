import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { forgetLastSession } from '../../features/ask-needl';
import { api, logToBackend } from '../../lib/api';
import { isApiError } from '../../lib/api-client';
import { broadcastAuth, onAuthBroadcast } from '../../lib/auth-channel';
import { OAUTH_SIGNIN_KEY, resetFirstLoad } from '../../lib/redirect-storage';
import { sessionStore, type Session } from '../../lib/session-store';

/** Authentication is refreshed this often while the tab is visible. */
export const AUTH_REFRESH_INTERVAL_MS = 1_800_000;

const lostToken = (error: unknown) => isApiError(error) && (error.status === 401 || error.status === 403);

/**
 * Returns whether the tab's user went between two sessions: signed out, lost the session (expiry,
 * another tab signing out, a stored token refused at start-up), or another user took the tab.
 * A refresh of the same user's token is no departure.
 */
export function userLeft(previous: Session, next: Session): boolean {
  if (!previous.token) return false;
  if (!next.token) return true;
  return Boolean(previous.user && next.user && previous.user.id !== next.user.id);
}

/**
 * Forgets what this tab kept for the user who left, so whoever uses the tab next never sees it:
 * the cached server data and AskNeedl's last active session (which a reload would restore).
 */
function forgetDepartedUser(queryClient: QueryClient) {
  queryClient.clear();
  forgetLastSession();
}

/**
 * Clears a leftover `oauth-signin` marker once signed in and tells the other tabs, which reload
 * into the session: at start-up with a stored session, and on every sign-in after. (The
 * organisation sign-in's own page clears it before it signs in, and announces the login itself.)
 */
function clearOAuthMarker(session: Session) {
  if (!session.token || !localStorage.getItem(OAUTH_SIGNIN_KEY)) return;
  localStorage.removeItem(OAUTH_SIGNIN_KEY);
  broadcastAuth({ type: 'login' });
}

/** Checks a stored token once per page load; a rejected token means signed out, other failures keep it. */
async function verifyStoredToken() {
  const { token, verified } = sessionStore.get();
  if (!token || verified) return;
  try {
    await api.refreshToken();
  } catch (error) {
    if (lostToken(error)) sessionStore.forget();
    else sessionStore.markVerified();
  }
}

/**
 * The session's background work: verifying the stored token, the 30-minute refresh, following
 * other tabs over the broadcast channel, the logout flow when the token is lost, and forgetting
 * the departed user's data whenever the tab's user goes (`userLeft`).
 */
export function SessionEffects() {
  const queryClient = useQueryClient();

  useEffect(() => {
    // A tab opened (or restored) with no session keeps nothing of whoever used it before.
    if (!sessionStore.get().token) forgetLastSession();
    clearOAuthMarker(sessionStore.get());
    void verifyStoredToken();
  }, []);

  useEffect(
    () =>
      onAuthBroadcast((message) => {
        if (message.type === 'login') window.location.reload();
        else sessionStore.expire(true);
      }),
    [],
  );

  useEffect(() => {
    let previous: Session = sessionStore.get();
    return sessionStore.subscribe((session) => {
      if (session.expired && !previous.expired) {
        resetFirstLoad();
        if (!session.expiredElsewhere) {
          broadcastAuth({ type: 'logout' });
          void logToBackend({ event: 'logout', reason: 'token could not be refreshed', path: window.location.pathname });
        }
      }
      if (userLeft(previous, session)) forgetDepartedUser(queryClient);
      clearOAuthMarker(session);
      previous = session;
    });
  }, [queryClient]);

  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible' || !sessionStore.get().token) return;
      api.refreshToken().catch((error: unknown) => {
        if (lostToken(error)) sessionStore.expire();
      });
    }, AUTH_REFRESH_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);

  return null;
}
