import { consumeFirstLoadRedirect, resetFirstLoad, saveRedirect, signedOutTarget } from './redirect-storage';

describe('redirect storage', () => {
  it('saves the address of a protected page but not of an /auth page', () => {
    saveRedirect('/auth/signin');
    expect(sessionStorage.getItem('redirectUri')).toBeNull();
    saveRedirect('/settings/user-settings?tab=1');
    expect(sessionStorage.getItem('redirectUri')).toBe('/settings/user-settings?tab=1');
  });

  it('returns the saved address on the first authenticated load only', () => {
    saveRedirect('/search');
    expect(consumeFirstLoadRedirect()).toBe('/search');
    expect(sessionStorage.getItem('isFirstAuthenticatedAppLoadDone')).toBe('true');
    saveRedirect('/notebooks');
    expect(consumeFirstLoadRedirect()).toBeNull();
    resetFirstLoad();
    expect(consumeFirstLoadRedirect()).toBe('/notebooks');
  });

  it('sends a pulse user to the pulse sign-in once, then to the default sign-in', () => {
    localStorage.setItem('appType', 'pulse');
    expect(signedOutTarget()).toBe('/pulse/auth/signin');
    expect(signedOutTarget()).toBe('/auth/signin');
  });
});
