import { screen, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { DocumentCard } from '../api/document-api';
import { MyDataLanding, MyDataLayout, SubCategoryPage } from './my-data-pages';

const tab = (key: string, label: string, count: number, connected: boolean) => ({ key, label, count, connected });

const categories = (...sources: ReturnType<typeof tab>[]) =>
  json(200, {
    results: [
      { key: 'feeds', label: 'My Data', sources },
      { key: 'apps', label: 'Apps', sources: [tab('needldrive', 'Needl Drive', 0, true)] },
    ],
  });

const item: DocumentCard = {
  deeplink: 'd1',
  source: 'rss_1',
  link: null,
  title: 'Harbour reopens',
  author: null,
  published_at: null,
  summary: null,
  metadata: {},
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
};

/** Shows where the app is, to assert redirects. */
function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

const renderMyData = (route: string) =>
  renderWithProviders(
    <>
      <Where />
      <Routes>
        <Route path="/feeds/home" element={<MyDataLayout />}>
          <Route index element={<MyDataLanding />} />
          <Route path=":suffix" element={<SubCategoryPage />} />
        </Route>
      </Routes>
    </>,
    { route },
  );

const common = {
  'GET /api/doc/read_status': () => json(200, { results: [] }),
  'GET /api/source/rss': () => json(200, { results: [] }),
  'GET /api/feature/config': () => json(200, { features: { doc_share: true } }),
};

describe('My Data', () => {
  it('lands on the first connected sub-category, keeping the address parameters, and lists it', async () => {
    const calls = stubApi({
      ...common,
      'GET /api/categories': () =>
        categories(tab('rss_news', 'Website & RSS', 1250, true), tab('exchanges', 'Exchanges', 0, false), tab('drives', 'Drives', 2, true)),
      'GET /api/documents?page=0&limit=20&sub_category=rss_news': () => json(200, { results: [item], page: 0, has_more: false }),
    });
    renderMyData('/feeds/home?overlay-type=ask-needl');
    expect(await screen.findByRole('article', { name: /Harbour reopens/ })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/feeds/home/rss_news?overlay-type=ask-needl');
    expect(calls.map((c) => c.key)).not.toContain('GET /api/documents?page=0&limit=20');

    const tabs = screen.getByRole('navigation', { name: 'My Data sources' });
    const links = within(tabs).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Website & RSS, 1.2k documents', 'Exchanges, 0 documents, not connected', 'Drives, 2 documents']);
    expect(within(tabs).getByRole('link', { name: /Website & RSS/ })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: /Exchanges/ })).toHaveAttribute('href', '/feeds/home/exchanges?overlay-type=ask-needl');
  });

  it("counts the user's notes in the Notes tab, whose page leads to Notebooks", async () => {
    stubApi({
      ...common,
      'GET /api/categories': () => categories(tab('drives', 'Drives', 0, false), tab('notes', 'Notes', 2, true)),
      'GET /api/documents?page=0&limit=20&sub_category=notes': () => json(200, { results: [], page: 0, has_more: false }),
    });
    renderMyData('/feeds/home');
    expect(await screen.findByRole('heading', { name: 'Your notes are in Notebooks' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/feeds/home/notes');
    const tabs = screen.getByRole('navigation', { name: 'My Data sources' });
    expect(within(tabs).getByRole('link', { name: /^Notes/ })).toHaveTextContent('Notes, 2 notes');
    expect(screen.getByRole('link', { name: 'Open Notebooks' })).toHaveAttribute('href', '/notebooks');
  });

  it('lands on a later sub-category when only that one is connected', async () => {
    stubApi({
      ...common,
      'GET /api/categories': () => categories(tab('rss_news', 'Website & RSS', 0, false), tab('drives', 'Drives', 1, true)),
      'GET /api/documents?page=0&limit=20&sub_category=drives': () => json(200, { results: [], page: 0, has_more: false }),
    });
    renderMyData('/feeds/home');
    expect(await screen.findByRole('heading', { name: 'Nothing in Drives yet' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/feeds/home/drives');
  });

  it('says how to connect a source or upload files when nothing is connected', async () => {
    const calls = stubApi({
      ...common,
      'GET /api/categories': () => categories(tab('rss_news', 'Website & RSS', 0, false), tab('drives', 'Drives', 0, false)),
    });
    renderMyData('/feeds/home');
    expect(await screen.findByRole('heading', { name: 'Nothing in My Data yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect a source' })).toHaveAttribute('href', '/connect');
    expect(screen.getByRole('link', { name: 'Upload files' })).toHaveAttribute('href', '/apps/needldrive');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/feeds\/home$/);
    expect(calls.some((c) => c.key.startsWith('GET /api/documents'))).toBe(false);
  });

  it('lists every document, as before the tabs, when the categories cannot be had', async () => {
    stubApi({
      ...common,
      'GET /api/categories': () => json(500, { code: 'internal', message: 'internal error' }),
      'GET /api/documents?page=0&limit=20': () => json(200, { results: [item], page: 0, has_more: false }),
    });
    renderMyData('/feeds/home');
    expect(await screen.findByRole('article', { name: /Harbour reopens/ })).toBeInTheDocument();
  });

  it('points an empty Website & RSS tab to the ways of following feeds', async () => {
    stubApi({
      ...common,
      'GET /api/categories': () => categories(tab('rss_news', 'Website & RSS', 0, false)),
      'GET /api/documents?page=0&limit=20&sub_category=rss_news': () => json(200, { results: [], page: 0, has_more: false }),
    });
    renderMyData('/feeds/home/rss_news');
    expect(await screen.findByRole('heading', { name: 'No feeds or websites followed yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse suggested feeds' })).toHaveAttribute('href', '/connect/rssTopics');
  });

  it.each([
    ['chats', 'Chats', 'Chat apps are not connected on this instance', 'Upload to Needl Drive', '/apps/needldrive'],
    ['emails', 'Emails', 'Email is not connected on this instance', 'Upload to Needl Drive', '/apps/needldrive'],
    ['webclips', 'Web Clips', 'The web clipper is not connected on this instance', 'Follow a website', '/connect/website'],
    ['socialmedia', 'Social Media', 'Social networks are not connected on this instance', 'Add an RSS feed', '/connect/rss'],
    ['exchanges', 'Exchanges', 'No exchange sources followed yet', 'Browse public sources', '/connect/public'],
    ['exchanges', 'Exchanges', 'No exchange sources followed yet', "Follow a US company's SEC filings", '/connect/edgar'],
  ])('says plainly that nothing fills the %s tab here, and links the way in that works', async (key, label, title, way, to) => {
    stubApi({
      ...common,
      'GET /api/categories': () => categories(tab('rss_news', 'Website & RSS', 1, true), tab(key, label, 0, false)),
      [`GET /api/documents?page=0&limit=20&sub_category=${key}`]: () => json(200, { results: [], page: 0, has_more: false }),
    });
    renderMyData(`/feeds/home/${key}`);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: way })).toHaveAttribute('href', to);
  });

  it('lists feeds that cannot be fetched with their error, retry and remove, and does not claim they are being fetched', async () => {
    const tried = new Date(Date.now() - 3 * 60_000).toISOString();
    const failing = {
      source_id: 'rss_9',
      priority: 'MEDIUM',
      key: 'http://127.0.0.1:9/feed.xml',
      label: 'Harbour news',
      link_to_crawl: 'http://127.0.0.1:9/feed.xml',
      thumbnail_location: null,
      last_error: 'could not fetch http://127.0.0.1:9/feed.xml: the server answered 404',
      last_attempt_at: tried,
      next_attempt_at: new Date(Date.now() + 60 * 60_000).toISOString(),
      last_fetched_at: null,
    };
    const calls = stubApi({
      ...common,
      'GET /api/source/rss': () => json(200, { results: [failing] }),
      'GET /api/categories': () => categories(tab('rss_news', 'Website & RSS', 0, true)),
      'GET /api/documents?page=0&limit=20&sub_category=rss_news': () => json(200, { results: [], page: 0, has_more: false }),
      'POST /api/connect/public?delink=true': () => json(200, { source_id: 'rss_9', following: false }),
    });
    renderMyData('/feeds/home/rss_news');
    expect(await screen.findByRole('heading', { name: 'Your feed could not be fetched' })).toBeInTheDocument();
    expect(screen.queryByText(/being fetched/)).not.toBeInTheDocument();
    const problems = screen.getByRole('region', { name: 'A feed cannot be fetched' });
    expect(problems).toHaveTextContent('Could not be fetched: could not fetch http://127.0.0.1:9/feed.xml: the server answered 404');
    expect(problems).toHaveTextContent('Last tried 3 mins ago; next try in 1 hour; never read.');
    expect(within(problems).getByRole('button', { name: 'Retry Harbour news now' })).toBeEnabled();
    within(problems).getByRole('button', { name: 'Remove Harbour news' }).click();
    await vi.waitFor(() => expect(calls.find((c) => c.key === 'POST /api/connect/public?delink=true')?.body).toEqual({ key: 'rss_9' }));
  });

  it('says feeds are being fetched only while a fetch is due', async () => {
    const read = new Date(Date.now() - 10 * 60_000).toISOString();
    const fine = {
      source_id: 'rss_1',
      priority: 'MEDIUM',
      key: 'https://example.com/feed.xml',
      label: 'Example',
      link_to_crawl: 'https://example.com/feed.xml',
      thumbnail_location: null,
      last_error: null,
      last_attempt_at: read,
      last_fetched_at: read,
      next_attempt_at: new Date(Date.now() + 5 * 60_000).toISOString(),
    };
    stubApi({
      ...common,
      'GET /api/source/rss': () => json(200, { results: [fine] }),
      'GET /api/categories': () => categories(tab('rss_news', 'Website & RSS', 0, true)),
      'GET /api/documents?page=0&limit=20&sub_category=rss_news': () => json(200, { results: [], page: 0, has_more: false }),
    });
    renderMyData('/feeds/home/rss_news');
    expect(await screen.findByText(/Your feeds were read 10 mins ago and had no items/)).toBeInTheDocument();
    expect(screen.queryByText(/being fetched/)).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /cannot be fetched/ })).not.toBeInTheDocument();
  });

  it('does not ask for a sub-category the server does not list', async () => {
    const calls = stubApi({ ...common, 'GET /api/categories': () => categories(tab('rss_news', 'Website & RSS', 0, true)) });
    renderMyData('/feeds/home/bogus');
    expect(await screen.findByRole('heading', { name: 'My Data has no such section' })).toBeInTheDocument();
    expect(calls.some((c) => c.key.startsWith('GET /api/documents'))).toBe(false);
  });
});
