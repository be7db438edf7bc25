import { AUTH_CHANNEL_NAME } from '../../../lib/auth-channel';
import { sessionStore } from '../../../lib/session-store';
import { json, stubApi } from '../../../test/render';
import { beginOrganisationSignIn, completeOrganisationSignIn, readHandoff, safeRedirect } from './oidc-api';

const user = { id: 'u1', email_id: 'alice@example.com', username: 'Alice Analyst', is_admin: true };

describe('organisation sign-in', () => {
  afterEach(() => sessionStore.signOut());

  it('returns only to addresses of this app', () => {
    expect(safeRedirect('/settings/user-settings?tab=1')).toBe('/settings/user-settings?tab=1');
    expect(safeRedirect('//evil.example/x')).toBe('/');
    expect(safeRedirect('https://evil.example/')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });

  it('leaves the marker and asks to come back to the saved address', () => {
    sessionStorage.setItem('redirectUri', '/search?q=copper ore');
    expect(beginOrganisationSignIn()).toBe('/api/auth/oidc/start?redirect=%2Fsearch%3Fq%3Dcopper%20ore');
    expect(localStorage.getItem('oauth-signin')).toBe('true');
    // Still saved: the first authenticated load consumes it as after any sign-in.
    expect(sessionStorage.getItem('redirectUri')).toBe('/search?q=copper ore');
  });

  it('comes back home when no address was saved, or the saved one is not of this app', () => {
    expect(beginOrganisationSignIn()).toBe('/api/auth/oidc/start?redirect=%2F');
    sessionStorage.setItem('redirectUri', '//evil.example');
    expect(beginOrganisationSignIn()).toBe('/api/auth/oidc/start?redirect=%2F');
  });

  it("comes back to the sign-in page's home (the pulse profile) when no address was saved", () => {
    expect(beginOrganisationSignIn(localStorage, sessionStorage, '/pulse/settings/user-settings')).toBe(
      '/api/auth/oidc/start?redirect=%2Fpulse%2Fsettings%2Fuser-settings',
    );
  });

  it('reads the form-encoded fragment the server sends', () => {
    expect(readHandoff('#token=a.b%2Bc&expires_at=2030-01-01T00%3A00%3A00%2B00%3A00&redirect=%2Fsearch%3Fq%3Da+b')).toEqual({
      token: 'a.b+c',
      redirect: '/search?q=a b',
    });
    expect(readHandoff('#token=t&redirect=%2F%2Fevil.example')).toEqual({ token: 't', redirect: '/' });
    expect(readHandoff('')).toEqual({ token: null, redirect: '/' });
    expect(readHandoff('#token=')).toEqual({ token: null, redirect: '/' });
  });

  it('exchanges the handed-over token, keeps the session, clears the marker and tells the other tabs', async () => {
    localStorage.setItem('oauth-signin', 'true');
    const sent: Array<string | undefined> = [];
    stubApi({
      'POST /api/auth/refresh': (init) => {
        sent.push((init.headers as Record<string, string>).token);
        return json(200, { token: 'fresh', user });
      },
    });
    const otherTab = new BroadcastChannel(AUTH_CHANNEL_NAME);
    const heard = new Promise((resolve) => {
      otherTab.onmessage = (e: MessageEvent) => resolve(e.data);
    });

    await completeOrganisationSignIn('from-the-address');
    expect(sent).toEqual(['from-the-address']);
    expect(sessionStore.get()).toMatchObject({ token: 'fresh', user, verified: true });
    expect(localStorage.getItem('oauth-signin')).toBeNull();
    expect(await heard).toEqual({ type: 'login' });
    otherTab.close();
  });

  it('keeps no session when the server refuses the token', async () => {
    stubApi({ 'POST /api/auth/refresh': () => json(401, { code: 'unauthorized', message: 'sign in again' }) });
    await expect(completeOrganisationSignIn('stale')).rejects.toMatchObject({ status: 401 });
    expect(sessionStore.get().token).toBeNull();
  });
});
