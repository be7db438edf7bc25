import { consumeFirstLoadRedirect, resetFirstLoad, saveRedirect, signedOutTarget } from './redirect-storage';

describe('redirect storage', () => {
  it('saves the address of a protected page but not of a sign-in page', () => {
    saveRedirect('/auth/signin');
    saveRedirect('/pulse/auth/signin');
    expect(sessionStorage.getItem('redirectUri')).toBeNull();
    saveRedirect('/pulse/update-portfolio');
    expect(sessionStorage.getItem('redirectUri')).toBe('/pulse/update-portfolio');
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

  it('sends a visitor at a pulse address to the pulse sign-in whatever is stored', () => {
    expect(signedOutTarget(localStorage, '/pulse/update-portfolio')).toBe('/pulse/auth/signin');
    expect(signedOutTarget(localStorage, '/settings/user-settings')).toBe('/auth/signin');
  });

  it('ignores and keeps an appType it has no target for', () => {
    localStorage.setItem('appType', 'other');
    expect(signedOutTarget()).toBe('/auth/signin');
    expect(localStorage.getItem('appType')).toBe('other');
  });
});
