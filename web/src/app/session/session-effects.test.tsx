import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { AUTH_CHANNEL_NAME } from '../../lib/auth-channel';
import { OAUTH_SIGNIN_KEY } from '../../lib/redirect-storage';
import { sessionStore } from '../../lib/session-store';
import { LAST_SESSION_KEY } from '../../features/ask-needl/last-session';
import { signOut } from '../../lib/auth';
import { json, stubApi } from '../../test/render';
import { AUTH_REFRESH_INTERVAL_MS, SessionEffects, userLeft } from './session-effects';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

const renderEffects = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SessionEffects />
    </QueryClientProvider>,
  );

const setVisibility = (state: DocumentVisibilityState) =>
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });

describe('session effects', () => {
  afterEach(() => {
    vi.useRealTimers();
    setVisibility('visible');
    sessionStore.signOut();
  });

  it('refreshes the token every 30 minutes while the tab is visible', async () => {
    vi.useFakeTimers();
    sessionStore.signIn('tok-1', user);
    const calls = stubApi({ 'POST /api/auth/refresh': () => json(200, { token: 'tok-2', user }) });
    renderEffects();

    await act(async () => vi.advanceTimersByTime(AUTH_REFRESH_INTERVAL_MS - 1));
    expect(calls).toHaveLength(0);
    await act(async () => vi.advanceTimersByTime(1));
    expect(calls.map((c) => c.key)).toEqual(['POST /api/auth/refresh']);
    await vi.waitFor(() => expect(sessionStore.get().token).toBe('tok-2'));

    setVisibility('hidden');
    await act(async () => vi.advanceTimersByTime(AUTH_REFRESH_INTERVAL_MS));
    expect(calls).toHaveLength(1);
  });

  it('announces a lost session to other tabs and logs it to the backend', async () => {
    sessionStore.signIn('tok-1', user);
    const calls = stubApi({ 'POST /api/debug-logs': () => new Response(null, { status: 204 }) });
    const otherTab = new BroadcastChannel(AUTH_CHANNEL_NAME);
    const heard = new Promise((resolve) => {
      otherTab.onmessage = (e: MessageEvent) => resolve(e.data);
    });
    renderEffects();

    act(() => sessionStore.expire());
    expect(await heard).toEqual({ type: 'logout' });
    await vi.waitFor(() => expect(calls.map((c) => c.key)).toContain('POST /api/debug-logs'));
    otherTab.close();
  });

  it('shows the sign-in prompt when another tab signs out', async () => {
    sessionStore.signIn('tok-1', user);
    stubApi({});
    const otherTab = new BroadcastChannel(AUTH_CHANNEL_NAME);
    renderEffects();
    otherTab.postMessage({ type: 'logout' });
    await vi.waitFor(() => expect(sessionStore.get()).toMatchObject({ token: null, expired: true, expiredElsewhere: true }));
    otherTab.close();
  });

  it('clears a leftover organisation sign-in marker when the app starts signed in, and tells the other tabs', async () => {
    sessionStore.signIn('tok-1', user);
    localStorage.setItem(OAUTH_SIGNIN_KEY, 'true');
    stubApi({});
    const otherTab = new BroadcastChannel(AUTH_CHANNEL_NAME);
    const heard = new Promise((resolve) => {
      otherTab.onmessage = (e: MessageEvent) => resolve(e.data);
    });
    renderEffects();
    expect(localStorage.getItem(OAUTH_SIGNIN_KEY)).toBeNull();
    expect(await heard).toEqual({ type: 'login' });
    otherTab.close();
  });

  it('keeps the marker while nobody is signed in (the organisation sign-in may still be under way)', () => {
    sessionStore.forget();
    stubApi({});
    localStorage.setItem(OAUTH_SIGNIN_KEY, 'true');
    renderEffects();
    expect(localStorage.getItem(OAUTH_SIGNIN_KEY)).toBe('true');
  });

  it("prompts to sign in again when the identity provider has ended the person's sign-in", async () => {
    vi.useFakeTimers();
    sessionStore.signIn('tok-1', user);
    stubApi({
      'POST /api/auth/refresh': () => json(401, { code: 'oidc_session_ended', message: 'your organisation ended this sign-in' }),
      'POST /api/debug-logs': () => new Response(null, { status: 204 }),
    });
    renderEffects();
    await act(async () => vi.advanceTimersByTime(AUTH_REFRESH_INTERVAL_MS));
    await vi.waitFor(() => expect(sessionStore.get()).toMatchObject({ token: null, expired: true }));
  });

  describe("AskNeedl's last active session", () => {
    const bob = { ...user, id: 'u2', email_id: 'bob@example.com', username: 'bob' };
    const remembered = () => sessionStorage.getItem(LAST_SESSION_KEY);

    beforeEach(() => sessionStorage.setItem(LAST_SESSION_KEY, 'ann-session'));
    afterEach(() => sessionStorage.clear());

    it('is forgotten when the user signs out, so the next user of the tab does not get it back', async () => {
      sessionStore.signIn('tok-1', user);
      stubApi({ 'POST /api/auth/signout': () => new Response(null, { status: 204 }) });
      renderEffects();
      expect(remembered()).toBe('ann-session');

      await act(() => signOut());
      expect(remembered()).toBeNull();
    });

    it('is forgotten when the session ends on its own or in another tab', async () => {
      sessionStore.signIn('tok-1', user);
      stubApi({ 'POST /api/debug-logs': () => new Response(null, { status: 204 }) });
      renderEffects();
      act(() => sessionStore.expire());
      expect(remembered()).toBeNull();

      sessionStorage.setItem(LAST_SESSION_KEY, 'ann-session');
      act(() => sessionStore.signIn('tok-2', user));
      act(() => sessionStore.expire(true));
      expect(remembered()).toBeNull();
    });

    it('is forgotten when another user takes the tab, and kept across a refresh of the same user', () => {
      sessionStore.signIn('tok-1', user);
      stubApi({});
      renderEffects();
      act(() => sessionStore.signIn('tok-2', user));
      expect(remembered()).toBe('ann-session');

      act(() => sessionStore.signIn('tok-3', bob));
      expect(remembered()).toBeNull();
    });

    it('is forgotten when the tab opens with no session', () => {
      sessionStore.signOut();
      stubApi({});
      sessionStorage.setItem(LAST_SESSION_KEY, 'ann-session');
      renderEffects();
      expect(remembered()).toBeNull();
    });

    it('tells a departure from a token refresh', () => {
      const session = (token: string | null, who: typeof user | null) => ({
        token,
        user: who,
        verified: true,
        expired: false,
        expiredElsewhere: false,
        signedOut: false,
      });
      expect(userLeft(session('a', user), session(null, null))).toBe(true);
      expect(userLeft(session('a', user), session('b', bob))).toBe(true);
      expect(userLeft(session('a', user), session('b', user))).toBe(false);
      expect(userLeft(session('a', null), session('b', user))).toBe(false);
      expect(userLeft(session(null, null), session('b', bob))).toBe(false);
    });
  });
});
