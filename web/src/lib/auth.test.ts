import { AUTH_CHANNEL_NAME } from './auth-channel';
import { endLocalSession } from './auth';
import { FIRST_LOAD_KEY } from './redirect-storage';
import { sessionStore } from './session-store';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

describe('ending a session the server already ended', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('forgets the token without calling the server and tells the other tabs', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    sessionStore.signIn('tok-1', user);
    sessionStorage.setItem(FIRST_LOAD_KEY, 'true');
    const otherTab = new BroadcastChannel(AUTH_CHANNEL_NAME);
    const seenByOtherTab = new Promise<string>((resolve) => {
      otherTab.onmessage = (e: MessageEvent<{ type: string }>) => resolve(e.data.type);
    });

    endLocalSession();

    expect(sessionStore.get()).toMatchObject({ token: null, user: null, signedOut: true, expired: false });
    expect(localStorage.getItem('needl.session')).toBeNull();
    expect(sessionStorage.getItem(FIRST_LOAD_KEY)).toBeNull();
    expect(await seenByOtherTab).toBe('logout');
    expect(fetch).not.toHaveBeenCalled();
    otherTab.close();
  });
});
