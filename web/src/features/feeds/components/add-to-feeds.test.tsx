import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardActionTarget } from '../../../lib/card-actions';
import { CardScopeProvider } from '../../../lib/card-details';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { board, flags, summary } from '../test/fixtures';
import { AddToFeeds } from './add-to-feeds';

const target: CardActionTarget = {
  deeplink: 'd1',
  source: 'src_reuters',
  title: 'RBI holds the repo rate',
  link: null,
  excerpt: null,
  previewPath: '/preview/feeds/d1',
};

const open = async () => {
  await userEvent.click(await screen.findByRole('button', { name: 'Add to Feeds: the source of RBI holds the repo rate' }));
  return screen.findByRole('dialog', { name: 'Add the source of RBI holds the repo rate to feeds' });
};

describe('Add to Feeds', () => {
  it('ticks the feeds that include the card’s source, and includes it in another one picked', async () => {
    const calls = stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b1', 'Rates'), summary('b2', 'Markets')] }),
      'GET /api/boards/b1': () => json(200, { results: board('b1', 'Rates') }),
      'GET /api/boards/b2': () => json(200, { results: board('b2', 'Markets', { sources: { src_reuters: { filter: true, exclusion_filter: false } } }) }),
      'PUT /api/boards/b1': (init) => json(200, { results: { ...board('b1', 'Rates'), definition: (JSON.parse(String(init.body)) as { definition: unknown }).definition } }),
    });
    renderWithProviders(<AddToFeeds target={target} />, { route: '/search' });
    const dialog = await open();
    const markets = await within(dialog).findByRole('checkbox', { name: 'Markets' });
    await waitFor(() => expect(markets).toBeChecked());
    const rates = within(dialog).getByRole('checkbox', { name: 'Rates' });
    await waitFor(() => expect(rates).toBeEnabled());
    expect(rates).not.toBeChecked();

    await userEvent.click(rates);
    expect(rates).toBeChecked();
    await waitFor(() => expect(calls.some((c) => c.key === 'PUT /api/boards/b1')).toBe(true));
    const sent = calls.find((c) => c.key === 'PUT /api/boards/b1')?.body as { definition: Record<string, unknown> };
    expect(sent.definition).toMatchObject({
      name: 'Rates',
      sources: { src_reuters: { filter: true, exclusion_filter: false } },
      keywords: { include: [{ keyword: 'inflation', valid: true }], exclude: [] },
    });
    expect(rates).toBeChecked();
  });

  it('puts the choice back and shows the generic error toast when saving fails', async () => {
    stubApi({
      'GET /api/feature/config': flags({ my_feeds: true }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b1', 'Rates')] }),
      'GET /api/boards/b1': () => json(200, { results: board('b1', 'Rates') }),
      'PUT /api/boards/b1': () => json(422, { code: 'feed_matches_everything', message: 'no' }),
    });
    renderWithProviders(<AddToFeeds target={target} />, { route: '/search' });
    const dialog = await open();
    const rates = await within(dialog).findByRole('checkbox', { name: 'Rates' });
    await waitFor(() => expect(rates).toBeEnabled());
    await userEvent.click(rates);
    expect(await screen.findByText('Oops! Something Went Wrong. Please Try Again Later :(')).toBeInTheDocument();
    await waitFor(() => expect(rates).not.toBeChecked());
  });

  it('is not offered on Needl Web results', async () => {
    stubApi({ 'GET /api/feature/config': flags({ my_feeds: true }) });
    renderWithProviders(
      <CardScopeProvider value={{ webResult: true }}>
        <AddToFeeds target={target} />
      </CardScopeProvider>,
      { route: '/search' },
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: /^Add to Feeds/ })).not.toBeInTheDocument();
  });
});
