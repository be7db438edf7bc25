import { dateLine, detailTags, isWebsiteOrRss, keysFromParams, previewPath, shareLink } from './document-display';

const doc = { deeplink: 'rss_1:a b', source: 'rss_1' };

describe('previewPath', () => {
  it("carries the card's access key when it has one", () => {
    expect(previewPath(doc)).toBe('/preview/feeds/rss_1%3Aa%20b?source=rss_1');
    expect(previewPath({ ...doc, access_key: 'k1' }, 'apps')).toBe('/preview/apps/rss_1%3Aa%20b?source=rss_1&access_key=k1');
  });
});

describe('shareLink', () => {
  it('builds the preview address on this origin with the public access key', () => {
    expect(shareLink('https://needl.example', doc, 'p/1', 'apps')).toBe(
      'https://needl.example/preview/apps/rss_1%3Aa%20b?source=rss_1&public_access_key=p%2F1',
    );
  });

  it('gives back the keys when its address is read', () => {
    const link = new URL(shareLink('https://needl.example', doc, 'p/1'));
    expect(keysFromParams(link.searchParams)).toEqual({ public_access_key: 'p/1' });
    expect(decodeURIComponent(link.pathname)).toBe('/preview/feeds/rss_1:a b');
  });
});

describe('keysFromParams', () => {
  it('reads the card key and the shared-link key, leaving out those absent or empty', () => {
    expect(keysFromParams(new URLSearchParams('source=s&access_key=a&public_access_key=p'))).toEqual({
      access_key: 'a',
      public_access_key: 'p',
    });
    expect(keysFromParams(new URLSearchParams('source=s&access_key='))).toEqual({});
  });
});

describe('dateLine', () => {
  const now = new Date('2026-11-22T10:00:00Z');

  it('shows DD-MM-YYYY and how long ago', () => {
    expect(dateLine('2026-11-22T07:00:00Z', now)).toBe('22-11-2026 · 3 hours ago');
  });

  it('shows the date once when it is too old for "ago"', () => {
    expect(dateLine('2026-09-01T10:00:00Z', now)).toBe('01-09-2026');
  });
});

describe('isWebsiteOrRss', () => {
  it('knows followed feeds and websites by their source ids', () => {
    expect(isWebsiteOrRss({ source: 'rss_8940dd773777ae62' })).toBe(true);
    expect(isWebsiteOrRss({ source: 'web_12ab' })).toBe(true);
    expect(isWebsiteOrRss({ source: 'needldrive' })).toBe(false);
    expect(isWebsiteOrRss({ source: 'bse_filings' })).toBe(false);
  });
});

describe('detailTags', () => {
  it('never shows the extractor\'s garbled flag that older uploads carry as a chip', () => {
    const tags = detailTags({ garbled: 'true', year: '2024', layout_blob: 'abc' });
    expect(tags.map((t) => t.key)).toEqual(['year']);
  });
});
