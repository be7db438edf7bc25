import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { PlanPage } from './plan-page';

const MiB = 1024 * 1024;

const FREE = {
  id: 'free',
  name: 'Free',
  description: 'Everything to try Needl, with a few feeds.',
  features: ['view_clipped', 'view_notebook', 'add_feed', 'add_notebook', 'save_clip', 'view_needldrive', 'add_to_needldrive', 'enable_feed', 'view_myfeeds'],
  limits: { feeds: 2, enabled_feeds: 2, notebooks: 3, storage_bytes: 512 * MiB },
};

const answer = (over: Record<string, unknown> = {}) => () =>
  json(200, {
    plan: FREE,
    pricing: true,
    usage: { feeds: 2, enabled_feeds: 1, notebooks: 0, storage_bytes: 128 * MiB },
    billing_portal_url: null,
    ...over,
  });

describe('PlanPage', () => {
  it('shows the plan, what it includes and leaves out, and usage against each limit as a labelled bar', async () => {
    stubApi({ 'GET /api/user/plan': answer() });
    renderWithProviders(<PlanPage />, { route: '/settings/plan' });
    expect(await screen.findByText('Free')).toBeInTheDocument();
    expect(screen.getByText('Everything to try Needl, with a few feeds.')).toBeInTheDocument();
    const includes = screen.getByRole('list', { name: 'What it includes' });
    expect(within(includes).getByText('Make feeds')).toBeInTheDocument();
    expect(within(includes).queryByText('Connect apps')).not.toBeInTheDocument();
    expect(screen.getByText('Not included: Connect apps.')).toBeInTheDocument();

    const feeds = screen.getByRole('progressbar', { name: 'Feeds used' });
    expect(feeds).toHaveAttribute('aria-valuenow', '100');
    expect(feeds).toHaveAttribute('aria-valuetext', '2 of 2');
    expect(screen.getByRole('progressbar', { name: 'Enabled feeds used' })).toHaveAttribute('aria-valuetext', '1 of 2');
    expect(screen.getByRole('progressbar', { name: 'Notebooks used' })).toHaveAttribute('aria-valuenow', '0');
    const storage = screen.getByRole('progressbar', { name: 'Storage used' });
    expect(storage).toHaveAttribute('aria-valuetext', '128 MB of 512 MB');
    expect(storage).toHaveAttribute('aria-valuenow', '25');

    expect(screen.getByText('Ask your administrator to change your plan.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Manage billing' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Plan' })).toHaveAttribute('aria-current', 'page');
  });

  it('writes a limit the plan does not have as no limit, without a bar, and says when one is passed', async () => {
    stubApi({
      'GET /api/user/plan': answer({
        plan: { ...FREE, id: 'pro', name: 'Professional', limits: { ...FREE.limits, notebooks: null } },
        usage: { feeds: 3, enabled_feeds: 2, notebooks: 7, storage_bytes: 0 },
      }),
    });
    renderWithProviders(<PlanPage />, { route: '/settings/plan' });
    expect(await screen.findByText('7 · no limit')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Notebooks used' })).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Feeds used' })).toHaveAttribute('aria-valuetext', '3 of 2');
    expect(screen.getAllByText(/Over the plan's limit/)).toHaveLength(1);
  });

  it('links to the billing portal in a new tab when the instance has one', async () => {
    stubApi({ 'GET /api/user/plan': answer({ billing_portal_url: 'https://billing.example/portal' }) });
    renderWithProviders(<PlanPage />, { route: '/settings/plan' });
    const link = await screen.findByRole('link', { name: 'Manage billing' });
    expect(link).toHaveAttribute('href', 'https://billing.example/portal');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
    expect(screen.queryByText('Ask your administrator to change your plan.')).not.toBeInTheDocument();
  });

  it('says plans do not limit the account when pricing is off, and shows the bare amounts', async () => {
    stubApi({ 'GET /api/user/plan': answer({ pricing: false }) });
    renderWithProviders(<PlanPage />, { route: '/settings/plan' });
    expect(await screen.findByText(/Plans do not limit this account/)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('128 MB')).toBeInTheDocument();
    expect(screen.queryByText('Ask your administrator to change your plan.')).not.toBeInTheDocument();
  });

  it('says so when the plan includes none of the gated features', async () => {
    stubApi({ 'GET /api/user/plan': answer({ plan: { ...FREE, features: [] } }) });
    renderWithProviders(<PlanPage />, { route: '/settings/plan' });
    expect(await screen.findByText('This plan includes none of the features plans decide.')).toBeInTheDocument();
  });

  it('shows a spinner while loading, and says when the plan cannot be loaded, then tries again', async () => {
    let calls = 0;
    stubApi({ 'GET /api/user/plan': () => (++calls === 1 ? json(500, { code: 'internal', message: 'internal error' }) : answer()()) });
    renderWithProviders(<PlanPage />, { route: '/settings/plan' });
    expect(screen.getByRole('status', { name: 'Loading your plan' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your plan could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Free')).toBeInTheDocument();
  });
});
