/**
 * The signed-in session: the ID token and the user it belongs to, kept in local storage so a
 * reload keeps the session. The API client reads the token here and reports here when it can no
 * longer be refreshed; the app subscribes and shows the sign-in prompt. No UI lives here.
 */

export interface SessionUser {
  id: string;
  email_id: string;
  username: string;
  is_admin: boolean;
  /** Reads the audit log without administering; absent from sessions stored before the server sent it. */
  is_auditor?: boolean;
}

export interface Session {
  token: string | null;
  user: SessionUser | null;
  /** True once the token has been checked with the server during this page load. */
  verified: boolean;
  /** True when the token was lost (refresh failed, another tab signed out): show the prompt. */
  expired: boolean;
  /** True when the loss was learnt from another tab, so it is not announced again. */
  expiredElsewhere: boolean;
  /** True after a deliberate sign-out on this page: the page left behind is not a place to return to. */
  signedOut: boolean;
}

export type SessionListener = (session: Session) => void;

export const SESSION_STORAGE_KEY = 'needl.session';

export interface SessionStore {
  get(): Session;
  subscribe(listener: SessionListener): () => void;
  /** Stores a token the server just issued (sign-in, sign-up or refresh). */
  signIn(token: string, user: SessionUser): void;
  /** Forgets the token after a deliberate sign-out. */
  signOut(): void;
  /** Forgets the token because it can no longer be used; the app then prompts to sign in again. */
  expire(elsewhere?: boolean): void;
  /** Forgets a stored token the server no longer accepts at start-up; the visitor just signs in again. */
  forget(): void;
  /** Notes that the stored token was checked with the server and still holds. */
  markVerified(): void;
}

function readStored(storage: Storage): Pick<Session, 'token' | 'user'> {
  try {
    const raw = storage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return { token: null, user: null };
    const parsed = JSON.parse(raw) as { token?: unknown; user?: SessionUser };
    return typeof parsed.token === 'string'
      ? { token: parsed.token, user: parsed.user ?? null }
      : { token: null, user: null };
  } catch {
    return { token: null, user: null };
  }
}

/**
 * Returns a session store backed by `storage` (local storage in the app). A token another tab
 * stored there (its refresh) is adopted while this page is signed in, so this page does not go on
 * with the token that refresh replaced, which stops working once its grace is over.
 */
export function createSessionStore(
  storage: Storage = localStorage,
  events: Pick<Window, 'addEventListener'> | null = typeof window === 'undefined' ? null : window,
): SessionStore {
  let session: Session = { ...readStored(storage), verified: false, expired: false, expiredElsewhere: false, signedOut: false };
  const listeners = new Set<SessionListener>();

  events?.addEventListener('storage', (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY || event.storageArea !== storage || !session.token) return;
    const stored = readStored(storage);
    if (!stored.token || stored.token === session.token) return;
    session = { ...session, token: stored.token, user: stored.user ?? session.user };
    listeners.forEach((l) => l(session));
  });

  const set = (next: Session) => {
    session = next;
    if (next.token) storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ token: next.token, user: next.user }));
    else storage.removeItem(SESSION_STORAGE_KEY);
    listeners.forEach((l) => l(session));
  };

  return {
    get: () => session,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn: (token, user) => set({ token, user, verified: true, expired: false, expiredElsewhere: false, signedOut: false }),
    signOut: () => set({ token: null, user: null, verified: true, expired: false, expiredElsewhere: false, signedOut: true }),
    expire: (elsewhere = false) => {
      if (session.expired && !session.token) return;
      set({ token: null, user: null, verified: true, expired: true, expiredElsewhere: elsewhere, signedOut: false });
    },
    forget: () => set({ token: null, user: null, verified: true, expired: false, expiredElsewhere: false, signedOut: false }),
    markVerified: () => {
      if (!session.verified) set({ ...session, verified: true });
    },
  };
}

/** The session of this page. */
export const sessionStore = createSessionStore();
