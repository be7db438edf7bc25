import { onboardingTarget } from './onboarding-target';

describe('where onboarding goes when it is done', () => {
  it('goes home without a redirect', () => {
    expect(onboardingTarget('')).toBe('/');
    expect(onboardingTarget('?redirect=')).toBe('/');
  });

  it('goes to a page of the app it was given, with its query', () => {
    expect(onboardingTarget('?redirect=%2Fsearch%3Fq%3Dtin')).toBe('/search?q=tin');
    expect(onboardingTarget('?redirect=/settings/user-settings')).toBe('/settings/user-settings');
  });

  it.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/onboarding', '/onboarding/?x=1'])(
    'goes home instead of %s',
    (redirect) => expect(onboardingTarget(`?redirect=${encodeURIComponent(redirect)}`)).toBe('/'),
  );
});
