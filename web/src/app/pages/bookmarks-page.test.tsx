import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CardTagActions, CardTags } from '../../features/tags';
import { CardActionsProvider } from '../../lib/card-actions';
import { CardDetailsProvider } from '../../lib/card-details';
import { json, renderWithProviders, stubApi } from '../../test/render';
import { BookmarksPage } from './bookmarks-page';

const doc = (n: number) => ({
  deeplink: `d${n}`,
  source: 'needldrive',
  link: null,
  title: `Report ${n}`,
  author: null,
  published_at: null,
  summary: null,
  metadata: { original_file_name: `report-${n}.pdf`, mime_type: 'application/pdf', size: '1024' },
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
  owned: true,
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const common = {
  'GET /api/doc/read_status': () => json(200, { results: [] }),
  'GET /api/source/rss': () => json(200, { results: [] }),
  'GET /api/feature/config': () => json(200, { features: { doc_delete: true } }),
};

const renderPage = () =>
  renderWithProviders(
    <CardActionsProvider value={[CardTagActions]}>
      <CardDetailsProvider value={[CardTags]}>
        <BookmarksPage />
      </CardDetailsProvider>
    </CardActionsProvider>,
    { route: '/needlbox/bookmarks/all' },
  );

describe('BookmarksPage', () => {
  it('lists the bookmarked documents without Delete, and an unbookmarked one leaves at once, back if the server refuses', async () => {
    const answer = deferred<Response>();
    const calls = stubApi({
      ...common,
      'GET /api/bookmarks?page=0&limit=20': () => json(200, { results: [doc(1), doc(2)], page: 0, has_more: false }),
      'GET /api/tag?deep_link=d1': () => json(200, { results: { user_tags: [], shared_tags: [], bookmarked: true } }),
      'GET /api/tag?deep_link=d2': () => json(200, { results: { user_tags: [], shared_tags: [], bookmarked: true } }),
      'DELETE /api/bookmarks/d1': () => answer.promise,
    });
    renderPage();
    const card = await screen.findByRole('article', { name: /Report 1/ });
    expect(within(card).getByRole('button', { name: 'Download report-1.pdf' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();

    const toggle = within(card).getByRole('button', { name: /^Bookmark/ });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'true'));
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.queryByRole('article', { name: /Report 1/ })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: /Report 2/ })).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('DELETE /api/bookmarks/d1');

    answer.resolve(json(500, { code: 'internal', message: 'internal error' }));
    const back = await screen.findByRole('article', { name: /Report 1/ });
    await waitFor(() => expect(within(back).getByRole('button', { name: /^Bookmark/ })).toHaveAttribute('aria-pressed', 'true'));
    expect(await screen.findByText('Your bookmark could not be saved. Please try again')).toBeInTheDocument();
  });

  it('says how to bookmark when there is nothing yet', async () => {
    stubApi({ ...common, 'GET /api/bookmarks?page=0&limit=20': () => json(200, { results: [], page: 0, has_more: false }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No bookmarks yet' })).toBeInTheDocument();
  });

  it('loads the next page on request', async () => {
    stubApi({
      ...common,
      'GET /api/bookmarks?page=0&limit=20': () => json(200, { results: [doc(1)], page: 0, has_more: true }),
      'GET /api/bookmarks?page=1&limit=20': () => json(200, { results: [doc(2)], page: 1, has_more: false }),
      'GET /api/tag?deep_link=d1': () => json(200, { results: { user_tags: [], shared_tags: [], bookmarked: true } }),
      'GET /api/tag?deep_link=d2': () => json(200, { results: { user_tags: [], shared_tags: [], bookmarked: true } }),
    });
    renderPage();
    await screen.findByRole('article', { name: /Report 1/ });
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('article', { name: /Report 2/ })).toBeInTheDocument();
  });
});
