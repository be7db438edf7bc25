import { isFullPage, showsSideNav } from './nav-routes';

describe('full pages', () => {
  it('are the bare search, document and image pages', () => {
    expect(['/search/full', '/search/full/', '/document', '/image'].map(isFullPage)).toEqual([true, true, true, true]);
    for (const path of ['/search', '/search/rss_news', '/preview/feeds/d', '/redirect/document', '/home']) expect(isFullPage(path)).toBe(false);
  });

  it('show no side navigation, though the rest of their area does', () => {
    expect(showsSideNav('/search/full')).toBe(false);
    expect(showsSideNav('/search')).toBe(true);
    expect(showsSideNav('/search/rss_news')).toBe(true);
  });
});
