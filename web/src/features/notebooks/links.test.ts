import { appPath, isSafeHref } from './links';

describe('appPath', () => {
  const origin = window.location.origin;

  it('keeps a path of the app, with its query and fragment', () => {
    expect(appPath('/preview/rss_news/d1')).toBe('/preview/rss_news/d1');
    expect(appPath('/notebooks?tab=all#n1')).toBe('/notebooks?tab=all#n1');
    // A percent-encoded backslash is a character of the path, not a separator.
    expect(appPath('/%5Cevil')).toBe('/%5Cevil');
  });

  it.each([
    '//evil.example',
    '/\\evil.example/x',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    'javascript:alert(1)',
    ' /preview/x',
    'evil.example/x',
    'https://evil.example/x',
  ])('refuses %j, which a browser would not open as a path of the app', (href) => {
    expect(appPath(href)).toBeNull();
    expect(appPath(href, origin)).toBeNull();
  });

  it('compares with the origin it is given', () => {
    expect(appPath('/a', 'http://app.invalid')).toBe('/a');
  });
});

describe('isSafeHref', () => {
  it('takes web and mail links and paths of the app, and nothing that leaves it another way', () => {
    for (const ok of ['https://example.org/a', 'HTTP://example.org', 'mailto:a@example.org', '/preview/x']) {
      expect(isSafeHref(ok)).toBe(true);
    }
    for (const bad of ['/\\evil.example/x', '//evil.example', '\\\\evil.example', '/\t/evil.example', 'javascript:x']) {
      expect(isSafeHref(bad)).toBe(false);
    }
  });
});
