import { QueryClient } from '@tanstack/react-query';
import { json, stubApi } from '../../../test/render';
import { DEFAULT_SEARCH_STATE } from '../search-state';
import { searchQueries, searchRequest, visibleTabs, type CategoryTab } from './search-api';

const state = { ...DEFAULT_SEARCH_STATE, q: 'tariffs', page: 3, categoryTab: 'rss_news', sort: 'size' as const, dateRange: '1M' as const };

describe('search requests', () => {
  it('ask for a page of ten results from the right place, with everything the search says', () => {
    expect(searchRequest('results', { ...state, boardId: 'rss_1' }, 'Europe/Paris')).toEqual({
      type: 'results',
      q: 'tariffs',
      search_type: null,
      category_tab: 'rss_news',
      start_from: 20,
      num_docs: 10,
      sort: 'size',
      sort_order: 'desc',
      date_range: '1M',
      today_date_range: false,
      timezone: 'Europe/Paris',
      spell_correct: true,
      exact: false,
      board_id: 'rss_1',
      channel_id: null,
    });
  });

  it('ask for the categories across every tab, with no documents and no sort', () => {
    expect(searchRequest('category', state, 'UTC')).toMatchObject({
      type: 'category',
      category_tab: null,
      start_from: 0,
      num_docs: 0,
      sort: null,
      sort_order: null,
      date_range: '1M',
    });
  });

  it('are cached indefinitely, one entry per scope and request', () => {
    const a = searchQueries.results('rss_news', state);
    expect(a.staleTime).toBe(Infinity);
    expect(searchQueries.categories(null, state).staleTime).toBe(Infinity);
    expect(a.queryKey).not.toEqual(searchQueries.results(null, state).queryKey);
    expect(a.queryKey).not.toEqual(searchQueries.results('rss_news', { ...state, page: 4 }).queryKey);
    // The sort does not change the counts, so the tabs are shared between sorts.
    expect(searchQueries.categories(null, state).queryKey).toEqual(searchQueries.categories(null, { ...state, sort: 'company' }).queryKey);
  });
});

describe('category tabs', () => {
  const tab = (key: string): CategoryTab => ({ key, label: key, icon: null, count: 1, data: { sub_category: key } });

  it('leave out today, links and media, keeping the order', () => {
    expect(visibleTabs(['rss_news', 'today', 'links', 'drives', 'media', 'exchanges'].map(tab)).map((t) => t.key)).toEqual([
      'rss_news',
      'drives',
      'exchanges',
    ]);
  });
});

describe('search results', () => {
  const answer = (sentiment?: unknown) => ({
    results: [{ deeplink: 'd1', source: 'rss_1', title: 'Profit beats', metadata: {}, ...(sentiment === undefined ? {} : { sentiment }) }],
    count: 1,
    start_from: 0,
    num_docs: 10,
    query_params: { q: 'profit' },
  });
  const fetchHit = async (sentiment?: unknown) => {
    stubApi({ 'POST /api/search': () => json(200, answer(sentiment)) });
    const page = await new QueryClient().fetchQuery(searchQueries.results(null, { ...DEFAULT_SEARCH_STATE, q: 'profit' }));
    return page.results[0];
  };

  it("keep each card's tone", async () => {
    expect((await fetchHit({ label: 'positive', score: 0.4 }))?.sentiment).toEqual({ label: 'positive', score: 0.4 });
  });

  it('read an older answer without tones, and drop a malformed one rather than fail', async () => {
    expect((await fetchHit())?.sentiment).toBeUndefined();
    expect((await fetchHit({ label: 'upbeat' }))?.title).toBe('Profit beats');
  });
});
