import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, logToBackend } from '../../lib/api';
import { isApiError } from '../../lib/api-client';
import { broadcastAuth, onAuthBroadcast } from '../../lib/auth-channel';
import { OAUTH_SIGNIN_KEY, resetFirstLoad } from '../../lib/redirect-storage';
import { sessionStore, type Session } from '../../lib/session-store';

/** Authentication is refreshed this often while the tab is visible. */
export const AUTH_REFRESH_INTERVAL_MS = 1_800_000;

const lostToken = (error: unknown) => isApiError(error) && (error.status === 401 || error.status === 403);

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
 * other tabs over the broadcast channel, and the logout flow when the token is lost.
 */
export function SessionEffects() {
  const queryClient = useQueryClient();

  useEffect(() => {
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
      if (!session.token && previous.token) queryClient.clear();
      if (session.token && localStorage.getItem(OAUTH_SIGNIN_KEY)) {
        localStorage.removeItem(OAUTH_SIGNIN_KEY);
        broadcastAuth({ type: 'login' });
      }
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
