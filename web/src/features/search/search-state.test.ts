import {
  changeSearch,
  DEFAULT_SEARCH_STATE,
  parseSearchParams,
  serialiseSearchState,
  sortForRequest,
  withSearchState,
  type SearchState,
} from './search-state';

const state = (change: Partial<SearchState> = {}): SearchState => ({ ...DEFAULT_SEARCH_STATE, ...change });

describe('search state in the address', () => {
  it('reads every parameter the search keeps', () => {
    const params = new URLSearchParams(
      'q=tariffs&spell_correct=false&search_type=needl_web&category_tab=rss_news&search_page=3&sort=size&sort_order=asc&date_range=3M&exact=true&board_id=rss_1',
    );
    expect(parseSearchParams(params)).toEqual({
      q: 'tariffs',
      spellCorrect: false,
      searchType: 'needl_web',
      categoryTab: 'rss_news',
      page: 3,
      sort: 'size',
      sortOrder: 'asc',
      dateRange: '3M',
      exact: true,
      boardId: 'rss_1',
      channelId: null,
    });
  });

  it('takes a missing or wrong value as the default', () => {
    const params = new URLSearchParams(
      'search_type=everything&search_page=0&sort=random&sort_order=sideways&date_range=5q&spell_correct=maybe&category_tab=',
    );
    expect(parseSearchParams(params)).toEqual(DEFAULT_SEARCH_STATE);
    expect(parseSearchParams(new URLSearchParams('search_page=2.5')).page).toBe(1);
    expect(parseSearchParams(new URLSearchParams('search_page=-1')).page).toBe(1);
  });

  it('keeps no order for sorts whose direction is their own', () => {
    expect(parseSearchParams(new URLSearchParams('sort=dateAsc&sort_order=desc'))).toMatchObject({ sort: 'dateAsc', sortOrder: null });
    expect(parseSearchParams(new URLSearchParams('sort_order=asc')).sortOrder).toBeNull();
  });

  it('writes defaults as nothing at all', () => {
    expect(serialiseSearchState(DEFAULT_SEARCH_STATE).toString()).toBe('');
    expect(serialiseSearchState(state({ q: 'a b' })).toString()).toBe('q=a+b');
  });

  it('gives back the same state after a round trip through the address', () => {
    const states: SearchState[] = [
      DEFAULT_SEARCH_STATE,
      state({ q: 'tariffs', page: 2, categoryTab: 'exchanges' }),
      state({ q: '"rate cut" AND (fed OR ecb)', spellCorrect: false, searchType: 'shared_data', dateRange: '1y' }),
      state({ q: 'x', sort: 'company', sortOrder: 'asc', exact: true, channelId: 'g1' }),
      state({ q: 'x', sort: 'dateDsc', boardId: 'rss_9' }),
      state({ q: 'ünïcødé & more', searchType: 'needl_web', page: 12 }),
    ];
    for (const s of states) {
      const address = serialiseSearchState(s).toString();
      expect(parseSearchParams(new URLSearchParams(address))).toEqual(s);
      expect(serialiseSearchState(parseSearchParams(new URLSearchParams(address))).toString()).toBe(address);
    }
  });

  it("keeps the overlay's parameters and drops the old search's", () => {
    const current = new URLSearchParams('overlay-type=ask-needl&q=old&search_page=4');
    expect(withSearchState(current, state({ q: 'new' }))).toBe('?overlay-type=ask-needl&q=new');
    expect(withSearchState(new URLSearchParams(), DEFAULT_SEARCH_STATE)).toBe('');
  });
});

describe('changing a search', () => {
  const looking = state({ q: 'tariffs', page: 4, categoryTab: 'rss_news', spellCorrect: false, sort: 'size', sortOrder: 'asc' });

  it('goes back to the first page on any change but the page', () => {
    expect(changeSearch(looking, { dateRange: '1w' })).toMatchObject({ page: 1, dateRange: '1w', categoryTab: 'rss_news' });
    expect(changeSearch(looking, { page: 5 }).page).toBe(5);
  });

  it('forgets the tab and lets spelling be corrected again for a new query', () => {
    expect(changeSearch(looking, { q: 'steel' })).toMatchObject({ q: 'steel', categoryTab: null, spellCorrect: true });
    expect(changeSearch(looking, { spellCorrect: true, q: looking.q }).categoryTab).toBe('rss_news');
  });

  it('drops the order when the new sort has its own', () => {
    expect(changeSearch(looking, { sort: 'dateDsc' }).sortOrder).toBeNull();
  });
});

describe('sort sent to the server', () => {
  it('sends nothing for relevance, the direction of date sorts, and the chosen order (descending by default) otherwise', () => {
    expect(sortForRequest({ sort: 'relevance', sortOrder: null })).toEqual({ sort: null, sort_order: null });
    expect(sortForRequest({ sort: 'dateDsc', sortOrder: null })).toEqual({ sort: 'dateDsc', sort_order: 'desc' });
    expect(sortForRequest({ sort: 'dateAsc', sortOrder: null })).toEqual({ sort: 'dateAsc', sort_order: 'asc' });
    expect(sortForRequest({ sort: 'size', sortOrder: null })).toEqual({ sort: 'size', sort_order: 'desc' });
    expect(sortForRequest({ sort: 'company', sortOrder: 'asc' })).toEqual({ sort: 'company', sort_order: 'asc' });
  });
});
