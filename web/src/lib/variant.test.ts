import { afterLoginTarget, afterLogoutTarget, signInPath, storedVariant, syncVariant, variantOf } from './variant';

describe('the app variant', () => {
  afterEach(() => localStorage.clear());

  it('is taken from the first path segment', () => {
    expect(variantOf('/pulse')).toBe('pulse');
    expect(variantOf('/pulse/auth/signin')).toBe('pulse');
    expect(variantOf('/pulse/settings/user-settings')).toBe('pulse');
    expect(variantOf('/')).toBe('default');
    expect(variantOf('/settings/user-settings')).toBe('default');
    expect(variantOf('/search/pulse')).toBe('default');
    expect(variantOf('/pulsed')).toBe('default');
  });

  it('stores appType on a pulse page, signed in or not', () => {
    syncVariant('/pulse/auth/signin', false);
    expect(localStorage.getItem('appType')).toBe('pulse');
    expect(storedVariant()).toBe('pulse');
  });

  it('forgets appType once a signed-in user is in the default app', () => {
    localStorage.setItem('appType', 'pulse');
    syncVariant('/feeds/home', true);
    expect(localStorage.getItem('appType')).toBeNull();
    expect(storedVariant()).toBe('default');
  });

  it('keeps appType on a default address while signed out, so the stored value can pick the sign-in page', () => {
    localStorage.setItem('appType', 'pulse');
    syncVariant('/auth/signin', false);
    expect(localStorage.getItem('appType')).toBe('pulse');
  });

  it("keeps appType on the organisation sign-in's return address", () => {
    localStorage.setItem('appType', 'pulse');
    syncVariant('/oauth/redirect', true);
    expect(localStorage.getItem('appType')).toBe('pulse');
  });

  it('sends the default app to / after login and logout, and pulse to its profile and its sign-in', () => {
    expect(afterLoginTarget('default')).toBe('/');
    expect(afterLogoutTarget('default')).toBe('/');
    expect(afterLoginTarget('pulse')).toBe('/pulse/settings/user-settings');
    expect(afterLogoutTarget('pulse')).toBe('/pulse/auth/signin');
    expect(signInPath('default')).toBe('/auth/signin');
    expect(signInPath('pulse')).toBe('/pulse/auth/signin');
  });

  it('reads an unknown stored appType as the default app', () => {
    localStorage.setItem('appType', 'something-else');
    expect(storedVariant()).toBe('default');
  });
});
