import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { board, flags, summary } from '../test/fixtures';
import { FeedsSettingsPage } from './feeds-settings-page';

/** Says where the app is (path and query), to show the builder was not opened. */
function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{pathname + search}</p>;
}

const row = async (name: string) =>
  (await screen.findAllByTestId('feed-settings-row')).find((r) => within(r).queryByRole('link', { name }))!;

describe('the feeds settings list', () => {
  it('turns a feed off at once, and back on when the server refuses', async () => {
    let fail = false;
    let enabled = true;
    let refuse = () => {};
    const calls = stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b1', 'Rates', { enabled })] }),
      'PUT /api/boards/enable/b1': (init) => {
        if (fail) return new Promise<Response>((resolve) => (refuse = () => resolve(json(500, { code: 'internal', message: 'x' }))));
        enabled = (JSON.parse(String(init.body)) as { enabled: boolean }).enabled;
        return json(200, { results: board('b1', 'Rates', {}, { enabled }) });
      },
    });
    renderWithProviders(<FeedsSettingsPage />, { route: '/settings/feeds' });
    const toggle = within(await row('Rates')).getByRole('switch', { name: 'Rates enabled' });
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(calls.find((c) => c.key === 'PUT /api/boards/enable/b1')?.body).toEqual({ enabled: false });

    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/boards/v2')).toHaveLength(2));
    fail = true;
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    await waitFor(() => expect(calls.filter((c) => c.key === 'PUT /api/boards/enable/b1')).toHaveLength(2));
    refuse();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
    expect(await screen.findByText('Oops! Something Went Wrong. Please Try Again Later :(')).toBeInTheDocument();
  });

  it('deletes a feed only after the user confirms', async () => {
    let listed = [summary('b1', 'Rates'), summary('b2', 'Credit')];
    const calls = stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: listed }),
      'DELETE /api/boards/b1': () => {
        listed = listed.filter((b) => b.board_id !== 'b1');
        return new Response(null, { status: 204 });
      },
    });
    renderWithProviders(<FeedsSettingsPage />, { route: '/settings/feeds' });
    await userEvent.click(within(await row('Rates')).getByRole('button', { name: 'Delete Rates' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Rates?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.key === 'DELETE /api/boards/b1')).toBe(false);

    await userEvent.click(within(await row('Rates')).getByRole('button', { name: 'Delete Rates' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete Rates?' })).getByRole('button', { name: 'Delete feed' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Rates' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Credit' })).toBeInTheDocument();
  });

  it('renames a feed by saving its definition with the new name', async () => {
    let name = 'Rates';
    const calls = stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b1', name)] }),
      'GET /api/boards/b1': () => json(200, { results: board('b1', name) }),
      'PUT /api/boards/b1': (init) => {
        name = (JSON.parse(String(init.body)) as { definition: { name: string } }).definition.name;
        return json(200, { results: board('b1', name) });
      },
    });
    renderWithProviders(<FeedsSettingsPage />, { route: '/settings/feeds' });
    await userEvent.click(within(await row('Rates')).getByRole('button', { name: 'Rename Rates' }));
    const box = screen.getByRole('textbox', { name: 'New name for Rates' });
    await userEvent.clear(box);
    await userEvent.type(box, 'Policy rates{Enter}');
    expect(await screen.findByRole('link', { name: 'Policy rates' })).toBeInTheDocument();
    const sent = calls.find((c) => c.key === 'PUT /api/boards/b1')?.body as { definition: Record<string, unknown> };
    expect(sent.definition).toMatchObject({ name: 'Policy rates', keywords: { include: [{ keyword: 'inflation', valid: true }], exclude: [] } });
  });

  it('duplicates a feed, sets its alerts and shares it into a group the user owns', async () => {
    let listed = [summary('b1', 'Rates')];
    const calls = stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: listed }),
      'POST /api/boards/b1/duplicate': () => {
        listed = [summary('b3', 'Rates (copy)'), ...listed];
        return json(200, { results: board('b3', 'Rates (copy)') });
      },
      'PUT /api/boards/b1/alerts': () => json(200, { results: board('b1', 'Rates', {}, { alerts: 'digest', priority: 'MEDIUM' }) }),
      'GET /api/channels': () =>
        json(200, { channels: [{ id: 'c1', name: 'Desk', role: 'owner' }, { id: 'c2', name: 'Others', role: 'member' }] }),
      'POST /api/boards/b1/channels': () => json(200, { results: [{ id: 'c1', name: 'Desk' }] }),
    });
    renderWithProviders(<FeedsSettingsPage />, { route: '/settings/feeds' });
    const rates = await row('Rates');
    await userEvent.click(within(rates).getByRole('button', { name: 'Duplicate Rates' }));
    expect(await screen.findByRole('link', { name: 'Rates (copy)' })).toBeInTheDocument();

    await userEvent.selectOptions(within(await row('Rates')).getByRole('combobox', { name: 'Alerts' }), 'digest');
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /api/boards/b1/alerts')?.body).toEqual({ alerts: 'digest', priority: 'MEDIUM' }));

    await userEvent.click(within(await row('Rates')).getByRole('button', { name: 'Share Rates to a group' }));
    const groups = await screen.findByRole('list', { name: 'Groups you own' });
    expect(within(groups).queryByRole('button', { name: 'Others' })).not.toBeInTheDocument();
    await userEvent.click(within(groups).getByRole('button', { name: 'Desk' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/boards/b1/channels')?.body).toEqual({ channel_ids: ['c1'] }));
  });

  it('says “No feeds found!” when the user has none', async () => {
    stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: [] }),
    });
    renderWithProviders(<FeedsSettingsPage />, { route: '/settings/feeds' });
    expect(await screen.findByText('No feeds found!')).toBeInTheDocument();
  });

  describe('with pricing', () => {
    const FEED_LIMIT = {
      isEligible: false,
      header: 'Feed limit reached',
      message: 'Your Free plan includes up to 2 feeds.',
      subtext: 'Turn a feed off or remove one to make room.',
      action: 'feed_manager',
    };

    it('opens the pricing prompt instead of the builder when the plan allows no more feeds', async () => {
      stubApi({
        'GET /api/feature/config': flags({ my_feeds: true, is_pricing: true }),
        'GET /api/boards/v2': () => json(200, { results: [summary('b1', 'Rates'), summary('b2', 'Credit')] }),
        'GET /api/messaging/pricing': () => json(200, { results: { add_feed: FEED_LIMIT, enable_feed: { isEligible: true } } }),
      });
      renderWithProviders(
        <>
          <FeedsSettingsPage />
          <Where />
        </>,
        { route: '/settings/feeds' },
      );
      const button = screen.getByRole('button', { name: 'New feed' });
      await waitFor(() => expect(button).toBeEnabled());
      await userEvent.click(button);
      const dialog = screen.getByRole('dialog', { name: 'Feed limit reached' });
      expect(dialog).toHaveTextContent('Your Free plan includes up to 2 feeds.');
      expect(within(dialog).getByRole('link', { name: 'Manage feeds' })).toHaveAttribute('href', '/settings/feeds');
      expect(screen.getByTestId('where')).toHaveTextContent(/^\/settings\/feeds$/);
    });

    it('opens the prompt instead of turning a feed on past the limit, and leaves the feed off', async () => {
      const calls = stubApi({
        'GET /api/feature/config': flags({ my_feeds: true, is_pricing: true }),
        'GET /api/boards/v2': () => json(200, { results: [summary('b3', 'Energy', { enabled: false })] }),
        'GET /api/messaging/pricing': () =>
          json(200, { results: { add_feed: { isEligible: true }, enable_feed: { ...FEED_LIMIT, message: 'Your Free plan turns on up to 2 feeds.' } } }),
      });
      renderWithProviders(<FeedsSettingsPage />, { route: '/settings/feeds' });
      const toggle = within(await row('Energy')).getByRole('switch', { name: 'Energy enabled' });
      await waitFor(() => expect(toggle).toBeEnabled());
      await userEvent.click(toggle);
      expect(screen.getByRole('dialog', { name: 'Feed limit reached' })).toHaveTextContent('Your Free plan turns on up to 2 feeds.');
      expect(toggle).toHaveAttribute('aria-checked', 'false');
      expect(calls.some((c) => c.key.startsWith('PUT /api/boards/enable/'))).toBe(false);
    });

    it('asks nothing of the plan with pricing off: New feed opens the builder', async () => {
      const calls = stubApi({
        'GET /api/feature/config': flags({ my_feeds: true }),
        'GET /api/boards/v2': () => json(200, { results: [] }),
      });
      renderWithProviders(<FeedsSettingsPage />, { route: '/settings/feeds' });
      await screen.findByText('No feeds found!');
      expect(screen.getByRole('button', { name: 'New feed' })).toBeEnabled();
      expect(calls.some((c) => c.key === 'GET /api/messaging/pricing')).toBe(false);
    });
  });
});
