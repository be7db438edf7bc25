import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { AUTH_CHANNEL_NAME } from '../../lib/auth-channel';
import { sessionStore } from '../../lib/session-store';
import { json, stubApi } from '../../test/render';
import { AUTH_REFRESH_INTERVAL_MS, SessionEffects } from './session-effects';

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
});
