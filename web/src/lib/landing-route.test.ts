import { landingRoute, landsOnMyData, myDataSuffix } from './landing-route';

describe('landingRoute', () => {
  it('lands on My Data when it is enabled, whatever else is', () => {
    expect(landingRoute({ my_data: true, search: true })).toBe('/feeds/home');
    expect(landingRoute({ my_data: true }, '/rss_news')).toBe('/feeds/home/rss_news');
  });

  it('takes the first enabled feature in the spec order', () => {
    expect(landingRoute({ my_data: false, search: true, bookmarks: true })).toBe('/search');
    expect(landingRoute({ ask_needl_full_screen: true, tags: true })).toBe('/ask-needl/full');
    expect(landingRoute({ comments: true, tags: true })).toBe('/needlbox/tags/all');
    expect(landingRoute({ comments: true, assistants: true })).toBe('/needlbox/comments/all');
    expect(landingRoute({ needl_report: true, report_generation: true })).toBe('/managers/report_generation/dashboard');
    expect(landingRoute({ needl_report: true })).toBe('/report');
  });

  it('falls back to /feeds/home when no feature is enabled', () => {
    expect(landingRoute({})).toBe('/feeds/home');
    expect(landingRoute({ notebooks: true })).toBe('/feeds/home');
  });
});

describe('myDataSuffix', () => {
  const tab = (key: string, connected: boolean) => ({ key, connected });

  it('names the first connected source type in the order given', () => {
    expect(myDataSuffix([tab('rss_news', false), tab('exchanges', false), tab('drives', true), tab('notes', true)])).toBe(
      '/drives',
    );
    expect(myDataSuffix([tab('rss_news', true), tab('drives', true)])).toBe('/rss_news');
  });

  it('is empty when nothing is connected', () => {
    expect(myDataSuffix([tab('rss_news', false), tab('drives', false)])).toBe('');
    expect(myDataSuffix([])).toBe('');
  });
});

describe('landsOnMyData', () => {
  it('holds when My Data is the first enabled feature, or none is', () => {
    expect(landsOnMyData({ my_data: true, search: true })).toBe(true);
    expect(landsOnMyData({})).toBe(true);
    expect(landsOnMyData({ my_data: false, search: true })).toBe(false);
  });
});
