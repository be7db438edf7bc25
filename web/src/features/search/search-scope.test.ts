import { helpTopicFor, SEARCH_HELP_LINKS } from './help-links';
import {
  currentScopeChoice,
  headerSearchTarget,
  isSearchPath,
  keepFullPage,
  locationLabel,
  MY_DATA,
  NEEDL_WEB,
  scopeFromPath,
  searchHeading,
  searchHref,
  SHARED_DATA,
  targetOfChoice,
} from './search-scope';
import { DEFAULT_SEARCH_STATE } from './search-state';

describe('the four search boxes', () => {
  it('search My Data at /search, the current feed at /search/today with its feed, Needl Web and shared data by search_type', () => {
    expect(searchHref(MY_DATA, ' tariffs ')).toBe('/search?q=tariffs');
    expect(searchHref(headerSearchTarget('/feeds/rss_1').target, 'tariffs')).toBe('/search/today?q=tariffs&board_id=rss_1');
    expect(searchHref(headerSearchTarget('/channels/g7/comments').target, 'x')).toBe('/search/today?q=x&channel_id=g7');
    expect(searchHref(NEEDL_WEB, 'x')).toBe('/search?q=x&search_type=needl_web');
    expect(searchHref(SHARED_DATA, 'x')).toBe('/search?q=x&search_type=shared_data');
  });

  it('keep the sort and date range of the search being looked at', () => {
    expect(searchHref(MY_DATA, 'x', { sort: 'dateAsc', dateRange: '1w', categoryTab: 'gone', page: 3 })).toBe(
      '/search?q=x&sort=dateAsc&date_range=1w',
    );
  });
});

describe('the header box', () => {
  it('searches the page being read: a feed, an app or needlbox source, or else My Data', () => {
    expect(headerSearchTarget('/feeds/home/rss_news')).toEqual({ kind: 'my_data', target: MY_DATA });
    expect(headerSearchTarget('/feeds/rss_1/documents').kind).toBe('current_feed');
    expect(headerSearchTarget('/apps/needldrive')).toEqual({ kind: 'source', target: { scope: 'needldrive', searchType: null } });
    expect(headerSearchTarget('/needlbox/rss_1/documents')).toEqual({ kind: 'source', target: { scope: 'rss_1', searchType: null } });
    // Bookmarks, tags and comments are no scope the server can search yet.
    expect(headerSearchTarget('/needlbox/bookmarks/all')).toEqual({ kind: 'my_data', target: MY_DATA });
    expect(headerSearchTarget('/needlbox/tags/all')).toEqual({ kind: 'my_data', target: MY_DATA });
    expect(headerSearchTarget('/needlbox/comments')).toEqual({ kind: 'my_data', target: MY_DATA });
    expect(headerSearchTarget('/settings/storage')).toEqual({ kind: 'my_data', target: MY_DATA });
    expect(headerSearchTarget('/channels')).toEqual({ kind: 'my_data', target: MY_DATA });
  });
});

describe('search paths', () => {
  it('know a search page and its scope', () => {
    expect(isSearchPath('/search')).toBe(true);
    expect(isSearchPath('/search/today')).toBe(true);
    expect(isSearchPath('/searching')).toBe(false);
    expect(scopeFromPath(undefined)).toBeNull();
    expect(scopeFromPath('full')).toBeNull();
    expect(scopeFromPath('rss_news')).toBe('rss_news');
  });

  it('keep a new search of all My Data on the full-page search', () => {
    expect(keepFullPage('/search?q=rates', '/search/full')).toBe('/search/full?q=rates');
    expect(keepFullPage('/search?q=rates&search_type=needl_web', '/search/full/')).toBe('/search/full?q=rates&search_type=needl_web');
    expect(keepFullPage('/search/rss_news?q=rates', '/search/full')).toBe('/search/rss_news?q=rates');
    expect(keepFullPage('/search?q=rates', '/search')).toBe('/search?q=rates');
  });
});

describe('the header of a search', () => {
  const names = { scope: (k: string) => ({ rss_news: 'Website & RSS' })[k], feed: (id: string) => ({ rss_1: 'Example News' })[id] };

  it('says the query "in" where it looks', () => {
    const s = DEFAULT_SEARCH_STATE;
    expect(searchHeading('tariffs', locationLabel(s, null))).toBe('"tariffs" in My Data');
    expect(locationLabel({ ...s, searchType: 'needl_web' }, null)).toBe('Needl Web');
    expect(locationLabel({ ...s, searchType: 'shared_data' }, null)).toBe('Shared Data');
    expect(locationLabel(s, 'rss_news', names)).toBe('Website & RSS');
    expect(locationLabel(s, 'bse_filings', names)).toBe('Bse filings');
    expect(locationLabel({ ...s, boardId: 'rss_1' }, 'today', names)).toBe('Example News');
    expect(locationLabel({ ...s, boardId: 'rss_2' }, 'today', names)).toBe('this feed');
    expect(locationLabel({ ...s, channelId: 'g1' }, 'today')).toBe('this group');
  });
});

describe('"Search in"', () => {
  it('offers the narrowed scope as "here" and leaves it for the wider ones', () => {
    const s = { ...DEFAULT_SEARCH_STATE, boardId: 'rss_1' };
    expect(currentScopeChoice('today', s)).toBe('here');
    expect(currentScopeChoice(null, DEFAULT_SEARCH_STATE)).toBe('my_data');
    expect(currentScopeChoice(null, { ...DEFAULT_SEARCH_STATE, searchType: 'needl_web' })).toBe('needl_web');
    expect(targetOfChoice('here', 'today', s)).toEqual({ scope: 'today', searchType: null, boardId: 'rss_1', channelId: null });
    expect(targetOfChoice('shared_data', 'today', s)).toEqual(SHARED_DATA);
    expect(targetOfChoice('my_data', 'today', s)).toEqual(MY_DATA);
  });
});

describe('help for an empty search', () => {
  it('picks the most specific topic it knows, else general help', () => {
    expect(helpTopicFor('rss_news')).toBe('rss_news');
    expect(helpTopicFor(null, 'us_regulatory_data')).toBe('exchanges');
    expect(helpTopicFor(undefined, null, 'webclips')).toBe('webclips');
    expect(helpTopicFor('bookmarks')).toBe('tags_bookmarks');
    expect(helpTopicFor('tags')).toBe('tags_bookmarks');
    expect(helpTopicFor('drives', null)).toBe('general');
    expect(helpTopicFor()).toBe('general');
  });

  it('has a distinct page for each topic', () => {
    const hrefs = Object.values(SEARCH_HELP_LINKS).map((l) => l.href);
    expect(new Set(hrefs).size).toBe(hrefs.length);
  });
});
