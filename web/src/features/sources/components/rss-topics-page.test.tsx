import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { FOLLOW_FAILED } from '../messages';
import { RssTopicsPage } from './rss-topics-page';

const feed = (n: number, following = false) => ({
  url: `https://example.com/${n}.xml`,
  label: `Feed ${n}`,
  source_id: `rss_${n}`,
  following,
});

const topics = { results: [{ key: 'research', title: 'Research preprints', count: 2 }] };

/** A promise the test resolves when it wants the server to answer. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const renderPage = () => renderWithProviders(<RssTopicsPage />, { route: '/connect/rssTopics' });

describe('RssTopicsPage', () => {
  it("lists each topic's feeds, following one at once and keeping it when the server agrees", async () => {
    const answer = deferred<Response>();
    let following = false;
    const calls = stubApi({
      'GET /api/rss/topics': () => json(200, topics),
      'GET /api/rss?topic=research': () =>
        json(200, { key: 'research', title: 'Research preprints', results: [feed(1, following), feed(2, true)] }),
      'POST /api/connect/rss': () => answer.promise,
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Research preprints feeds' });
    const rows = within(list).getAllByTestId('suggested-feed');
    expect(rows.map((r) => r.dataset.following)).toEqual(['false', 'true']);
    expect(within(rows[1]).getByText('Following')).toBeInTheDocument();

    await userEvent.click(within(rows[0]).getByRole('button', { name: 'Follow Feed 1' }));
    expect(rows[0]).toHaveAttribute('data-following', 'true');
    expect(within(rows[0]).getByText('Following')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/connect/rss')?.body).toEqual({ url: 'https://example.com/1.xml', label: 'Feed 1' });

    following = true;
    answer.resolve(json(200, { source_id: 'rss_1', priority: 'MEDIUM', key: 'k', label: 'Feed 1', link_to_crawl: 'k', thumbnail_location: null }));
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/rss?topic=research')).toHaveLength(2));
    expect(rows[0]).toHaveAttribute('data-following', 'true');
  });

  it("goes back to Follow with the spec's text when the server fails without a reason", async () => {
    const answer = deferred<Response>();
    stubApi({
      'GET /api/rss/topics': () => json(200, topics),
      'GET /api/rss?topic=research': () => json(200, { key: 'research', title: 'Research preprints', results: [feed(1)] }),
      'POST /api/connect/rss': () => answer.promise,
    });
    renderPage();
    const follow = await screen.findByRole('button', { name: 'Follow Feed 1' });
    await userEvent.click(follow);
    const row = screen.getByTestId('suggested-feed');
    expect(row).toHaveAttribute('data-following', 'true');

    answer.resolve(json(500, { code: 'internal', message: 'internal error' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(FOLLOW_FAILED);
    await waitFor(() => expect(row).toHaveAttribute('data-following', 'false'));
    expect(within(row).getByRole('button', { name: 'Follow Feed 1' })).toBeEnabled();
  });

  it("shows the server's reason when it refuses the feed", async () => {
    stubApi({
      'GET /api/rss/topics': () => json(200, topics),
      'GET /api/rss?topic=research': () => json(200, { key: 'research', title: 'Research preprints', results: [feed(1)] }),
      'POST /api/connect/rss': () => json(422, { code: 'invalid', message: 'the feed address must start with http:// or https://' }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Follow Feed 1' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('the feed address must start with http:// or https://');
    await waitFor(() => expect(screen.getByTestId('suggested-feed')).toHaveAttribute('data-following', 'false'));
  });

  it('unfollows a followed feed', async () => {
    const calls = stubApi({
      'GET /api/rss/topics': () => json(200, topics),
      'GET /api/rss?topic=research': () => json(200, { key: 'research', title: 'Research preprints', results: [feed(2, true)] }),
      'POST /api/connect/public?delink=true': () => json(200, { source_id: 'rss_2', following: false }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow Feed 2' }));
    expect(calls.find((c) => c.key === 'POST /api/connect/public?delink=true')?.body).toEqual({ key: 'rss_2' });
  });

  it('links to adding a feed by its address', async () => {
    stubApi({ 'GET /api/rss/topics': () => json(200, { results: [] }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No suggested feeds yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add it yourself' })).toHaveAttribute('href', '/connect/rss');
  });
});
