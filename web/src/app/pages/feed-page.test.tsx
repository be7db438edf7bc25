import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../test/render';
import { FeedSourcePage } from './feed-page';

const summary = (extra: Record<string, unknown> = {}) => ({
  board_id: 'b1',
  board_name: 'Rates',
  description: 'Central bank moves',
  created_at: '2026-11-01T10:00:00Z',
  enabled: true,
  kind: 'keyword',
  priority: 'MEDIUM',
  alerts: 'off',
  channels: [],
  can_undo: false,
  ...extra,
});

const doc = (n: number, story: unknown = null) => ({
  id: `d${n}`,
  deeplink: `d${n}`,
  source: 'src_reuters',
  title: `Story ${n}`,
  link: null,
  summary: null,
  published_at: '2026-11-20T10:00:00Z',
  metadata: {},
  status: 'unread',
  access_key: `k${n}`,
  source_label: 'Reuters',
  category_tab: 'rss_news',
  story,
});

const page = (docs: unknown[], pageNo: number, hasMore: boolean) =>
  json(200, { results: { ...summary(), definition: { name: 'Rates' }, documents: docs, count: 21, page: pageNo, has_more: hasMore } });

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/feeds/:source" element={<FeedSourcePage />} />
      <Route path="/feeds/:source/:subCategory" element={<FeedSourcePage />} />
    </Routes>,
    { route },
  );

describe('a custom feed’s page', () => {
  it('shows the feed’s documents, paged, with a story’s other sources on its card', async () => {
    let undone = false;
    const calls = stubApi({
      'GET /api/feature/config': () => json(200, { features: { my_feeds: true } }),
      'GET /api/boards/v2': () => json(200, { results: [summary({ can_undo: !undone })] }),
      'GET /api/boards/b1/v2?page=0&limit=20': () => page([doc(1, { id: 's1', size: 3, sources: ['Mint', 'ET'] }), doc(2)], 0, true),
      'GET /api/boards/b1/v2?page=1&limit=20': () => page([doc(3)], 1, false),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'POST /api/boards/b1/undo': () => {
        undone = true;
        return json(200, { results: { ...summary(), definition: { name: 'Rates' } } });
      },
    });
    renderAt('/feeds/b1');
    expect(await screen.findByRole('link', { name: 'Story 1' })).toBeInTheDocument();
    const cards = screen.getAllByTestId('document-card');
    expect(within(cards[0]).getByTestId('story-badge')).toHaveTextContent('+2 sources');
    expect(within(cards[1]).queryByTestId('story-badge')).not.toBeInTheDocument();
    expect(screen.getByText('Central bank moves')).toBeInTheDocument();
    expect(screen.queryByText('b1')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Story 3' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Undo last change' }));
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /api/boards/b1/undo')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo last change' })).not.toBeInTheDocument());
  });

  it('asks for a sub-tab’s documents by category tab, and links every sub-tab', async () => {
    const calls = stubApi({
      'GET /api/feature/config': () => json(200, { features: {} }),
      'GET /api/boards/v2': () => json(200, { results: [summary()] }),
      'GET /api/boards/b1/v2?page=0&limit=20&category_tab=media': () => page([doc(7)], 0, false),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
    });
    renderAt('/feeds/b1/media');
    expect(await screen.findByRole('link', { name: 'Story 7' })).toBeInTheDocument();
    expect(calls.some((c) => c.key === 'GET /api/boards/b1/v2?page=0&limit=20&category_tab=media')).toBe(true);
    const tabs = screen.getByRole('navigation', { name: 'Feed views' });
    expect(within(tabs).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/feeds/b1',
      '/feeds/b1/links',
      '/feeds/b1/media',
      '/feeds/b1/webclips',
      '/feeds/b1/comments',
    ]);
  });

  it('shows a source’s documents when the segment is not one of the user’s feeds', async () => {
    const calls = stubApi({
      'GET /api/boards/v2': () => json(200, { results: [summary()] }),
      'GET /api/documents?page=0&limit=20&source_id=rss_1': () => json(200, { results: [doc(5)], page: 0, has_more: false }),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/feature/config': () => json(200, { features: {} }),
    });
    renderAt('/feeds/rss_1');
    expect(await screen.findByRole('link', { name: 'Story 5' })).toBeInTheDocument();
    expect(calls.some((c) => c.key.startsWith('GET /api/boards/rss_1'))).toBe(false);
  });
});
