import { useMutation } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { api } from '../lib/api';
import { MOBILE_QUERY } from '../lib/media';
import { PLATFORM_STORAGE_KEY, setNativePlatform } from '../lib/native-bridge';
import { showPlanPrompt } from '../lib/plan-prompts';
import type { PlanPrompt } from '../lib/pricing';
import { json, renderWithProviders, stubApi } from '../test/render';

const FEED_LIMIT: PlanPrompt = {
  header: 'Feed limit reached',
  message: 'Your Free plan includes up to 2 feeds.',
  subtext: 'Turn a feed off or remove one to make room.',
  action: 'feed_manager',
};

/** Says where the app is, to assert where the prompt's action led. */
function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

const userPlan = (billing_portal_url: string | null) => () =>
  json(200, {
    plan: { id: 'free', name: 'Free', description: 'To try it.', features: [], limits: { feeds: 2, enabled_feeds: 2, notebooks: 3, storage_bytes: 1 } },
    pricing: true,
    usage: { feeds: 2, enabled_feeds: 2, notebooks: 0, storage_bytes: 0 },
    billing_portal_url,
  });

const onPhone = (phone: boolean) =>
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: phone && query === MOBILE_QUERY, addEventListener: () => {}, removeEventListener: () => {} })),
  );

describe('the pricing prompt', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows its header, body and subtext in a modal whose footer leads to the feed manager', async () => {
    onPhone(false);
    stubApi({});
    renderWithProviders(<Where />, { route: '/feeds/home' });
    act(() => showPlanPrompt(FEED_LIMIT));
    const dialog = screen.getByRole('dialog', { name: 'Feed limit reached' });
    expect(dialog).toHaveTextContent('Your Free plan includes up to 2 feeds.');
    expect(dialog).toHaveTextContent('Turn a feed off or remove one to make room.');
    await userEvent.click(within(dialog).getByRole('link', { name: 'Manage feeds' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/settings/feeds');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('leads to the storage page, and Close only closes', async () => {
    onPhone(false);
    stubApi({});
    renderWithProviders(<Where />, { route: '/apps/needldrive' });
    act(() => showPlanPrompt({ ...FEED_LIMIT, header: 'Storage full', action: 'storage' }));
    const dialog = screen.getByRole('dialog', { name: 'Storage full' });
    expect(within(dialog).getByRole('link', { name: 'Manage storage' })).toHaveAttribute('href', '/settings/storage');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/apps/needldrive');
  });

  it('upgrades in the billing portal, in a new tab, when the instance has one', async () => {
    onPhone(false);
    stubApi({ 'GET /api/user/plan': userPlan('https://billing.example/portal') });
    renderWithProviders(<Where />, { route: '/feeds/home' });
    act(() => showPlanPrompt({ ...FEED_LIMIT, header: 'Upgrade your plan', action: 'upgrade' }));
    const upgrade = await within(screen.getByRole('dialog')).findByRole('link', { name: 'Upgrade' });
    expect(upgrade).toHaveAttribute('href', 'https://billing.example/portal');
    expect(upgrade).toHaveAttribute('target', '_blank');
    expect(upgrade).toHaveAttribute('rel', 'noopener');
  });

  it('sends an upgrade to the Plan page when there is no billing portal', async () => {
    onPhone(false);
    const calls = stubApi({ 'GET /api/user/plan': userPlan(null) });
    renderWithProviders(<Where />, { route: '/feeds/home' });
    act(() => showPlanPrompt({ ...FEED_LIMIT, header: 'Upgrade your plan', action: 'upgrade' }));
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /api/user/plan')).toBe(true));
    const link = within(screen.getByRole('dialog')).getByRole('link', { name: 'See your plan' });
    expect(link).toHaveAttribute('href', '/settings/plan');
  });

  it('is a toast with the message on a phone, not a modal', async () => {
    onPhone(true);
    stubApi({});
    renderWithProviders(<Where />, { route: '/feeds/home' });
    act(() => showPlanPrompt(FEED_LIMIT));
    expect(await screen.findByText('Your Free plan includes up to 2 feeds.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is a toast, not a modal, inside the native app', async () => {
    onPhone(false);
    setNativePlatform('ios');
    stubApi({});
    renderWithProviders(<Where />, { route: '/feeds/home' });
    act(() => showPlanPrompt(FEED_LIMIT));
    expect(await screen.findByText('Your Free plan includes up to 2 feeds.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    sessionStorage.removeItem(PLATFORM_STORAGE_KEY);
  });

  it('opens when the server refuses a write for the plan, with the eligibility map’s words and no error toast', async () => {
    onPhone(false);
    stubApi({
      'POST /api/boards/v2': () => json(403, { code: 'plan_required', message: FEED_LIMIT.message }),
      'GET /api/messaging/pricing': () =>
        json(200, { results: { add_feed: { isEligible: false, ...FEED_LIMIT }, add_notebook: { isEligible: true } } }),
    });
    function CreateFeed() {
      const create = useMutation({ mutationFn: () => api.post('/boards/v2', { body: { definition: { name: 'Third' } } }) });
      return (
        <button type="button" onClick={() => create.mutate()}>
          Create feed
        </button>
      );
    }
    renderWithProviders(<CreateFeed />, { route: '/feeds/home' });
    await userEvent.click(screen.getByRole('button', { name: 'Create feed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Feed limit reached' });
    expect(dialog).toHaveTextContent(FEED_LIMIT.message);
    expect(within(dialog).getByRole('link', { name: 'Manage feeds' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
