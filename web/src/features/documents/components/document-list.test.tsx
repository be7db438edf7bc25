import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { DocumentCard } from '../api/document-api';
import { DocumentList } from './document-list';

const doc = (n: number): DocumentCard => ({
  deeplink: `d${n}`,
  source: 'rss_1',
  link: null,
  title: `Item ${n}`,
  author: null,
  published_at: null,
  summary: null,
  metadata: {},
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
});

const followed = {
  source_id: 'rss_1',
  priority: 'MEDIUM',
  key: 'https://example.com/feed.xml',
  label: 'Example News',
  link_to_crawl: 'https://example.com/feed.xml',
  thumbnail_location: null,
};

const page = (docs: DocumentCard[], n = 0, hasMore = false) => json(200, { results: docs, page: n, has_more: hasMore });

describe('DocumentList', () => {
  it('shows five placeholders, then the documents, and loads the next page on request', async () => {
    stubApi({
      'GET /api/documents?page=0&limit=20': () => page([doc(1), doc(2)], 0, true),
      'GET /api/documents?page=1&limit=20': () => page([doc(3)], 1, false),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/source/rss': () => json(200, { results: [followed] }),
    });
    renderWithProviders(<DocumentList source={null} />, { route: '/feeds/home' });
    expect(screen.getAllByTestId('document-skeleton')).toHaveLength(5);
    const first = await screen.findByRole('article', { name: /Item 1/ });
    expect(await within(first).findByText('Example News')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('article', { name: /Item 3/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('asks for one source when given one', async () => {
    const calls = stubApi({
      'GET /api/documents?page=0&limit=20&source_id=rss_9': () => page([]),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/source/rss': () => json(200, { results: [followed] }),
    });
    renderWithProviders(<DocumentList source="rss_9" />, { route: '/feeds/rss_9' });
    expect(await screen.findByRole('heading', { name: 'No documents yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add an RSS feed' })).toHaveAttribute('href', '/connect/rss');
    expect(calls.map((c) => c.key)).toContain('GET /api/documents?page=0&limit=20&source_id=rss_9');
  });

  it('marks a document read at once and goes back if the server refuses', async () => {
    let answer!: (r: Response) => void;
    stubApi({
      'GET /api/documents?page=0&limit=20': () => page([doc(1)]),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/source/rss': () => json(200, { results: [followed] }),
      'PUT /api/doc/read_status/d1': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderWithProviders(<DocumentList source={null} />, { route: '/feeds/home' });
    const card = await screen.findByRole('article', { name: /Item 1/ });
    const toggle = within(card).getByRole('button', { name: /^Read/ });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'false'));
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(card).toHaveAttribute('data-read', 'true');

    answer(json(500, { code: 'internal', message: 'internal error' }));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'false'));
  });

  it('shows an error state when the documents cannot be loaded', async () => {
    stubApi({
      'GET /api/documents?page=0&limit=20': () => json(500, { code: 'internal', message: 'boom' }),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/source/rss': () => json(200, { results: [followed] }),
    });
    renderWithProviders(<DocumentList source={null} />, { route: '/feeds/home' });
    expect(await screen.findByRole('heading', { name: 'Documents could not be loaded' })).toBeInTheDocument();
  });

  it("shows cards' tones when the user's flag turns them on", async () => {
    const toned = (n: number, label: 'positive' | 'negative' | 'neutral'): DocumentCard => ({ ...doc(n), sentiment: { label, score: 0 } });
    stubApi({
      'GET /api/documents?page=0&limit=20': () => page([toned(1, 'positive'), toned(2, 'negative'), toned(3, 'neutral')]),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/source/rss': () => json(200, { results: [followed] }),
      'GET /api/feature/config': () => json(200, { features: { doc_sentiment_analysis: true } }),
    });
    renderWithProviders(<DocumentList source={null} />, { route: '/feeds/home' });
    expect(await within(await screen.findByRole('article', { name: /Item 1/ })).findByRole('img', { name: 'Tone: positive' })).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: /Item 2/ })).getByRole('img', { name: 'Tone: negative' })).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: /Item 3/ })).queryByTestId('sentiment-badge')).not.toBeInTheDocument();
  });
});
