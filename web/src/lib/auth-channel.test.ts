import { AUTH_CHANNEL_NAME, broadcastAuth, onAuthBroadcast } from './auth-channel';

describe('auth channel', () => {
  it('delivers messages from other tabs but not the ones this page sent', async () => {
    const received: string[] = [];
    const stop = onAuthBroadcast((m) => received.push(m.type));
    const otherTab = new BroadcastChannel(AUTH_CHANNEL_NAME);
    const seenByOtherTab = new Promise<string>((resolve) => {
      otherTab.onmessage = (e: MessageEvent<{ type: string }>) => resolve(e.data.type);
    });

    broadcastAuth({ type: 'logout' });
    expect(await seenByOtherTab).toBe('logout');
    otherTab.postMessage({ type: 'login' });
    await vi.waitFor(() => expect(received).toEqual(['login']));

    stop();
    otherTab.close();
  });
});
