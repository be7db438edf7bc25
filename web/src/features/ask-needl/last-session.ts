/**
 * The tab's last active session (the spec's lastActiveSessionId): the conversation this tab was
 * in, kept in session storage so a reload brings it back and another tab keeps its own.
 * Storage that refuses (private modes, quotas) only loses the convenience.
 */

export const LAST_SESSION_KEY = 'askNeedl.lastActiveSessionId';

export function readLastSession(storage: Storage | undefined = globalThis.sessionStorage): string | null {
  try {
    return storage?.getItem(LAST_SESSION_KEY) || null;
  } catch {
    return null;
  }
}

export function rememberLastSession(sessionId: string, storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    storage?.setItem(LAST_SESSION_KEY, sessionId);
  } catch {
    // Not kept: a reload starts an empty chat.
  }
}

export function forgetLastSession(storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    storage?.removeItem(LAST_SESSION_KEY);
  } catch {
    // Nothing was kept.
  }
}
