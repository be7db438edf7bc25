import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { FollowedWebsitesPage } from './followed-websites-page';

const site = (n: number, lastError: string | null = null) => ({
  source_id: `web_${n}`,
  label: `Site ${n}`,
  url: `https://site${n}.example/`,
  priority: 'MEDIUM',
  followed_at: '2026-11-20T10:00:00Z',
  last_fetched_at: lastError ? null : '2026-11-20T10:00:00Z',
  last_error: lastError,
});

describe('FollowedWebsitesPage', () => {
  it('lists the followed sites with the reason a site keeps failing', async () => {
    stubApi({ 'GET /api/connect/website': () => json(200, { results: [site(1), site(2, 'the server answered 503')] }) });
    renderWithProviders(<FollowedWebsitesPage />, { route: '/connect/website/followed' });
    const list = await screen.findByRole('list', { name: 'Followed websites' });
    const rows = within(list).getAllByTestId('website');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByRole('link', { name: 'https://site1.example/' })).toBeInTheDocument();
    expect(within(rows[0]).getByText(/^Last read/)).toBeInTheDocument();
    expect(within(rows[1]).getByText('Last fetch failed: the server answered 503')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Not read yet')).toBeInTheDocument();
  });

  it('unfollows a site by its source id', async () => {
    let followed = [site(1), site(2)];
    const calls = stubApi({
      'GET /api/connect/website': () => json(200, { results: followed }),
      'POST /api/connect/website?delink=true': () => {
        followed = [site(2)];
        return json(200, { source_id: 'web_1', following: false, label: null, url: null });
      },
    });
    renderWithProviders(<FollowedWebsitesPage />, { route: '/connect/website/followed' });
    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow Site 1' }));
    await waitFor(() => expect(screen.queryByText('Site 1')).not.toBeInTheDocument());
    expect(calls.find((c) => c.key === 'POST /api/connect/website?delink=true')?.body).toEqual({ source_id: 'web_1' });
  });

  it('shows the server text when unfollowing fails', async () => {
    stubApi({
      'GET /api/connect/website': () => json(200, { results: [site(1)] }),
      'POST /api/connect/website?delink=true': () => json(404, { code: 'not_following', message: 'you do not follow this source' }),
    });
    renderWithProviders(<FollowedWebsitesPage />, { route: '/connect/website/followed' });
    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow Site 1' }));
    expect(await screen.findByText('you do not follow this source')).toBeInTheDocument();
  });

  it('shows an empty state that leads to following a site', async () => {
    stubApi({ 'GET /api/connect/website': () => json(200, { results: [] }) });
    renderWithProviders(<FollowedWebsitesPage />, { route: '/connect/website/followed' });
    expect(await screen.findByRole('heading', { name: 'No websites yet' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Follow a website' })[0]).toHaveAttribute('href', '/connect/website');
  });

  it('shows an error state with a retry', async () => {
    stubApi({ 'GET /api/connect/website': () => json(500, { code: 'internal', message: 'x' }) });
    renderWithProviders(<FollowedWebsitesPage />, { route: '/connect/website/followed' });
    expect(await screen.findByRole('heading', { name: 'Your websites could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
