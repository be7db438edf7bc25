import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { SearchHit, SearchRequest } from '../api/search-api';
import { SearchPage } from './search-page';
import { SearchTitle } from './search-title';

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

/** The browser's back button. */
function Back() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(-1)}>
      back
    </button>
  );
}

const now = new Date('2026-11-22T10:00:00Z');

const renderSearch = (route: string) =>
  renderWithProviders(
    <>
      <Where />
      <Back />
      <SearchTitle />
      <Routes>
        <Route path="/search" element={<SearchPage now={now} />} />
        <Route path="/search/:scope" element={<SearchPage now={now} />} />
        <Route path="/preview/*" element={<p>the preview</p>} />
      </Routes>
    </>,
    { route },
  );

const hit = (n: number): SearchHit => ({
  deeplink: `rss_1:${n}`,
  source: 'rss_1',
  source_label: 'Example News',
  category_tab: 'rss_news',
  link: null,
  title: `Tariff story ${n}`,
  author: null,
  published_at: '2026-11-20T10:00:00Z',
  ingested_at: '2026-11-20T10:00:00Z',
  summary: null,
  metadata: {},
  read: false,
  owned: false,
  access_key: `k${n}`,
  score: 1,
  highlights: [{ html: `about <em>tariffs</em> ${n}`, page: null, boxes: [] }],
});

const tabs = [
  { key: 'rss_news', label: 'Website & RSS', icon: 'rss', count: 15_300, data: { sub_category: 'rss_news' } },
  { key: 'today', label: 'Today', icon: 'today', count: 4, data: { sub_category: 'today' } },
  { key: 'drives', label: 'Drives', icon: 'drive', count: 1000, data: { sub_category: 'drives' } },
  { key: 'media', label: 'Media', icon: 'media', count: 2, data: { sub_category: 'media' } },
];

interface Answers {
  categories?: (body: SearchRequest) => Response;
  results?: (body: SearchRequest) => Response;
  corrected?: string | null;
  count?: number;
}

/** Answers POST /api/search (and /api/search/{scope}) as the contract says, recording the bodies. */
function stubSearch(paths: string[], answers: Answers = {}) {
  const count = answers.count ?? 42;
  const queryParams = (body: SearchRequest) => ({ q: body.q, corrected_q: body.spell_correct ? (answers.corrected ?? null) : null });
  const handler = (init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as SearchRequest;
    if (body.type === 'category') {
      return answers.categories?.(body) ?? json(200, { category_tabs: tabs, count: 16_306, query_params: queryParams(body) });
    }
    if (answers.results) return answers.results(body);
    const shown = Math.max(0, Math.min(body.num_docs, count - body.start_from));
    const results = Array.from({ length: shown }, (_, i) => hit(body.start_from + i + 1));
    return json(200, { results, count, start_from: body.start_from, num_docs: body.num_docs, query_params: queryParams(body) });
  };
  const calls = stubApi({
    'GET /api/categories': () =>
      json(200, { results: [{ key: 'feeds', label: 'My Data', sources: [{ key: 'rss_news', label: 'Website & RSS', count: 3, connected: true }] }] }),
    ...Object.fromEntries(paths.map((path) => [`POST /api${path}`, handler])),
  });
  const bodies = (type: SearchRequest['type']) =>
    calls.filter((c) => c.key.startsWith('POST /api/search')).map((c) => c.body as SearchRequest).filter((b) => b.type === type);
  return { calls, bodies };
}

describe('the search page', () => {
  it('shows the query "in" My Data, the tabs with their counts, a page of cards and where it is in them', async () => {
    const { bodies } = stubSearch(['/search']);
    renderSearch('/search?q=tariffs');
    expect(await screen.findByRole('article', { name: 'Tariff story 1' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"tariffs" in My Data');
    expect(screen.getAllByTestId('search-result')).toHaveLength(10);
    expect(screen.getByTestId('search-range')).toHaveTextContent('1 to 10 of 42 results');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    const nav = screen.getByRole('navigation', { name: 'Result categories' });
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual([
      'All, 16.3k results',
      'Website & RSS, 15.3k results',
      'Drives, 1k results',
    ]);
    expect(within(nav).getByRole('link', { name: /^All/ })).toHaveAttribute('aria-current', 'page');

    expect(bodies('category')[0]).toMatchObject({ type: 'category', q: 'tariffs', num_docs: 0, start_from: 0, spell_correct: true });
    expect(bodies('results')[0]).toMatchObject({
      type: 'results',
      q: 'tariffs',
      num_docs: 10,
      start_from: 0,
      category_tab: null,
      search_type: null,
      sort: null,
      sort_order: null,
      date_range: null,
      board_id: null,
      channel_id: null,
      today_date_range: false,
      exact: false,
    });
    expect(typeof bodies('results')[0].timezone).toBe('string');
  });

  it('searches all of My Data on the full page, and a new search stays there', async () => {
    const { bodies } = stubSearch(['/search']);
    renderSearch('/search/full?q=tariffs');
    expect(await screen.findByRole('article', { name: 'Tariff story 1' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"tariffs" in My Data');
    const box = screen.getByRole('searchbox', { name: 'Search for' });
    await userEvent.clear(box);
    await userEvent.type(box, 'rates{Enter}');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/search/full?q=rates'));
    await waitFor(() => expect(bodies('results').at(-1)).toMatchObject({ q: 'rates', category_tab: null }));
  });

  it('pages through the results, and keeps each page in the address', async () => {
    const { bodies } = stubSearch(['/search']);
    renderSearch('/search?q=tariffs');
    await screen.findByRole('article', { name: 'Tariff story 1' });
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('article', { name: 'Tariff story 11' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/search?q=tariffs&search_page=2');
    expect(screen.getByTestId('search-range')).toHaveTextContent('11 to 20 of 42 results');
    expect(bodies('results').at(-1)).toMatchObject({ start_from: 10, num_docs: 10 });
    // The tabs do not depend on the page: asked once.
    expect(bodies('category')).toHaveLength(1);
  });

  it('says how far the last page goes and offers no next page', async () => {
    stubSearch(['/search']);
    renderSearch('/search?q=tariffs&search_page=5');
    expect(await screen.findByTestId('search-range')).toHaveTextContent('41 to 42 of 42 results');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('sorts and narrows the dates through the address, back at page 1', async () => {
    const { bodies } = stubSearch(['/search']);
    renderSearch('/search?q=tariffs&search_page=2');
    await screen.findByRole('article', { name: 'Tariff story 11' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Newest first');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/search?q=tariffs&sort=dateDsc'));
    await screen.findByRole('article', { name: 'Tariff story 1' });
    expect(bodies('results').at(-1)).toMatchObject({ sort: 'dateDsc', sort_order: 'desc', start_from: 0 });
    expect(screen.queryByRole('combobox', { name: 'Order' })).not.toBeInTheDocument();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Size');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'Ascending');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Date' }), 'Last 3 months');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/search?q=tariffs&sort=size&sort_order=asc&date_range=3M'));
    await waitFor(() => expect(bodies('results').at(-1)).toMatchObject({ sort: 'size', sort_order: 'asc', date_range: '3M' }));
    expect(bodies('category').at(-1)).toMatchObject({ date_range: '3M', sort: null });
    expect(screen.getByRole('combobox', { name: 'Date' })).toHaveDisplayValue('Last 3 months');
    expect(screen.getByTestId('date-range-dates')).toHaveTextContent(/^22-08-2026 to 22-11-2026$/);
  });

  it('asks for one category when its tab is chosen', async () => {
    const { bodies } = stubSearch(['/search']);
    renderSearch('/search?q=tariffs');
    await userEvent.click(await screen.findByRole('link', { name: /^Website & RSS/ }));
    await waitFor(() => expect(bodies('results').at(-1)).toMatchObject({ category_tab: 'rss_news' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/search?q=tariffs&category_tab=rss_news');
    expect(screen.getByRole('link', { name: /^Website & RSS/ })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the corrected query as the header, and searches for the original as typed from the subheader', async () => {
    const { bodies } = stubSearch(['/search'], { corrected: 'tariffs' });
    renderSearch('/search?q=tarifs');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"tariffs" in My Data'));
    const subheader = await screen.findByTestId('search-subheading');
    expect(subheader).toHaveTextContent('Showing results for “tariffs”. Search instead for “tarifs”');
    await userEvent.click(within(subheader).getByRole('link', { name: '“tarifs”' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/search?q=tarifs&spell_correct=false');
    await waitFor(() => expect(bodies('category').at(-1)).toMatchObject({ q: 'tarifs', spell_correct: false }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"tarifs" in My Data'));
    expect(screen.queryByTestId('search-subheading')).not.toBeInTheDocument();
  });

  it('says "No search results found" with the help page of what was searched', async () => {
    stubSearch(['/search/rss_news'], { count: 0 });
    renderSearch('/search/rss_news?q=zzqxv');
    expect(await screen.findByRole('heading', { name: 'No search results found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Following websites and RSS feeds/ })).toHaveAttribute(
      'href',
      'https://docs.needl.ai/guide/sources/websites-and-rss',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"zzqxv" in Website & RSS');
    expect(screen.queryByTestId('search-range')).not.toBeInTheDocument();
  });

  it('shows general help when nothing more specific is known', async () => {
    stubSearch(['/search'], { count: 0 });
    renderSearch('/search?q=zzqxv');
    expect(await screen.findByRole('link', { name: /How search works/ })).toHaveAttribute('data-topic', 'general');
  });

  it("shows the server's message for a keyword it refused by the search box, once, without a toast", async () => {
    const refused = () => json(400, { code: 'invalid_keyword', message: 'Invalid keyword. Paranthesis are imbalanced.' });
    const { bodies } = stubSearch(['/search'], { categories: refused, results: refused });
    renderSearch('/search?q=(tariffs');
    const alert = await screen.findByTestId('search-error');
    expect(alert).toHaveTextContent('Invalid keyword. Paranthesis are imbalanced.');
    expect(alert).toHaveAttribute('role', 'alert');
    const input = screen.getByRole('searchbox', { name: 'Search for' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Invalid keyword. Paranthesis are imbalanced.');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Result categories' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Notifications' })).queryByText(/Invalid keyword/)).not.toBeInTheDocument();
    // A refusal is not asked again.
    expect(bodies('category')).toHaveLength(1);
    expect(bodies('results')).toHaveLength(1);

    await userEvent.clear(input);
    await userEvent.type(input, 'tariffs{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent('/search?q=tariffs');
  });

  it('offers to try again when the search failed on the server', { timeout: 10_000 }, async () => {
    let fail = true;
    stubSearch(['/search'], {
      results: (body) =>
        fail
          ? json(500, { code: 'internal', message: 'internal error' })
          : json(200, { results: [hit(1)], count: 1, start_from: 0, num_docs: 10, query_params: { q: body.q, corrected_q: null } }),
    });
    renderSearch('/search?q=tariffs');
    // A server failure is retried as other calls are (twice) before the page gives up.
    expect(await screen.findByRole('heading', { name: 'Search failed' }, { timeout: 6_000 })).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Tariff story 1' })).toBeInTheDocument();
    expect(screen.getByTestId('search-range')).toHaveTextContent('1 to 1 of 1 results');
  });

  it('shows placeholders while the results load', async () => {
    stubSearch(['/search'], { results: () => new Promise<Response>(() => {}) as unknown as Response });
    renderSearch('/search?q=tariffs');
    expect(await screen.findByRole('status', { name: 'Loading search results' })).toBeInTheDocument();
  });

  it('asks nothing for an empty query and says what to type', async () => {
    const { calls } = stubSearch(['/search']);
    renderSearch('/search');
    expect(screen.getByRole('heading', { name: 'Search your data' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Search');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search for' }), 'steel{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent('/search?q=steel');
    expect(calls.filter((c) => c.key.startsWith('POST')).length).toBeGreaterThan(0);
  });

  it('searches the current feed at /search/today with its board, and can widen to Needl Web', async () => {
    const { bodies } = stubSearch(['/search/today', '/search']);
    renderSearch('/search/today?q=tariffs&board_id=rss_9');
    await screen.findByRole('article', { name: 'Tariff story 1' });
    expect(bodies('results')[0]).toMatchObject({ board_id: 'rss_9', channel_id: null });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"tariffs" in this feed');
    const scope = screen.getByRole('combobox', { name: 'Search in' });
    expect(scope).toHaveDisplayValue('This feed');
    await userEvent.selectOptions(scope, 'Needl Web');
    expect(screen.getByTestId('where')).toHaveTextContent('/search?q=tariffs&search_type=needl_web');
    await waitFor(() => expect(bodies('results').at(-1)).toMatchObject({ search_type: 'needl_web', board_id: null }));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"tariffs" in Needl Web');
  });

  it('opens the preview from a card', async () => {
    stubSearch(['/search']);
    renderSearch('/search?q=tariffs');
    await userEvent.click(await screen.findByRole('link', { name: 'Tariff story 2' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/preview/feeds/rss_1%3A2?source=rss_1&access_key=k2');
  });

  it('goes back to the previous search, box and all, with the browser', async () => {
    stubSearch(['/search']);
    renderSearch('/search?q=tariffs&search_page=2');
    await screen.findByRole('article', { name: 'Tariff story 11' });
    const input = screen.getByRole('searchbox', { name: 'Search for' });
    await userEvent.clear(input);
    await userEvent.type(input, 'steel{Enter}');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"steel" in My Data'));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/search\?q=steel$/);

    await userEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(await screen.findByRole('article', { name: 'Tariff story 11' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search for' })).toHaveValue('tariffs');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('"tariffs" in My Data');
  });
});
