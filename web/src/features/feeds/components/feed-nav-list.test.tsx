import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { flags, summary } from '../test/fixtures';
import { FeedNavList } from './feed-nav-list';

describe('feeds in the side navigation', () => {
  it('lists the user’s feeds as links to their pages, with a New feed entry', async () => {
    stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b1', 'Rates'), summary('b2', 'Credit', { enabled: false })] }),
    });
    renderWithProviders(<FeedNavList />, { route: '/feeds/home' });
    const list = await screen.findByRole('list', { name: 'Feeds' });
    expect(within(list).getByRole('link', { name: 'Rates' })).toHaveAttribute('href', '/feeds/b1');
    expect(within(list).getByRole('link', { name: /Credit/ })).toHaveAttribute('href', '/feeds/b2');
    expect(screen.getByRole('button', { name: '+ New feed' })).toBeInTheDocument();
  });

  it('says “No feeds found!” when there are none', async () => {
    stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: [] }),
    });
    renderWithProviders(<FeedNavList />, { route: '/feeds/home' });
    expect(await screen.findByText('No feeds found!')).toBeInTheDocument();
  });

  it('lists only enabled feeds under is_pricing', async () => {
    stubApi({
      'GET /api/feature/config': flags({ my_feeds: true, is_pricing: true }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b1', 'Rates'), summary('b2', 'Credit', { enabled: false })] }),
    });
    renderWithProviders(<FeedNavList />, { route: '/feeds/home' });
    const list = await screen.findByRole('list', { name: 'Feeds' });
    expect(within(list).getAllByRole('link').map((a) => a.textContent)).toEqual(['Rates']);
  });

  it('says “No feeds found!” under is_pricing when every feed is off', async () => {
    stubApi({
      'GET /api/feature/config': flags({ my_feeds: true, is_pricing: true }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b2', 'Credit', { enabled: false })] }),
    });
    renderWithProviders(<FeedNavList />, { route: '/feeds/home' });
    expect(await screen.findByText('No feeds found!')).toBeInTheDocument();
  });

  it('is not shown, and asks for nothing, without the my_feeds flag', async () => {
    const calls = stubApi({ 'GET /api/feature/config': flags({ my_feeds: false }) });
    renderWithProviders(<FeedNavList />, { route: '/feeds/home' });
    await screen.findByText((_, el) => el?.tagName === 'BODY');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: '+ New feed' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.key === 'GET /api/boards/v2')).toBe(false);
  });

  it('keeps the list fresh for 15 seconds', async () => {
    const { boardQueries } = await import('../api/feeds-api');
    expect(boardQueries.list().staleTime).toBe(15_000);
  });

  it('opens the pricing prompt instead of the builder when the plan allows no more feeds', async () => {
    const calls = stubApi({
      'GET /api/feature/config': flags({ my_feeds: true, is_pricing: true }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b1', 'Rates'), summary('b2', 'Credit')] }),
      'GET /api/messaging/pricing': () =>
        json(200, {
          results: { add_feed: { isEligible: false, header: 'Feed limit reached', message: 'Your Free plan includes up to 2 feeds.', subtext: null, action: 'feed_manager' } },
        }),
    });
    const onNavigate = vi.fn();
    renderWithProviders(<FeedNavList onNavigate={onNavigate} />, { route: '/feeds/home' });
    const entry = await screen.findByRole('button', { name: '+ New feed' });
    await waitFor(() => expect(entry).toBeEnabled());
    await userEvent.click(entry);
    const dialog = screen.getByRole('dialog', { name: 'Feed limit reached' });
    expect(within(dialog).getByRole('link', { name: 'Manage feeds' })).toHaveAttribute('href', '/settings/feeds');
    expect(onNavigate).not.toHaveBeenCalled();
    expect(calls.filter((c) => c.key === 'GET /api/messaging/pricing')).toHaveLength(1);
  });
});
