import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { RssSource } from '../api/source-api';
import { bulkSelectionState } from '../hooks/use-bulk-selection';
import { BULK_LIMIT_TOOLTIP, PRIORITY_FAILED, PRIORITY_UPDATED } from '../messages';
import { RssSourceList } from './rss-source-list';

const source = (n: number, priority: RssSource['priority'] = 'MEDIUM'): RssSource => ({
  source_id: `rss_${n}`,
  priority,
  key: `https://example.com/${n}.xml`,
  label: `Feed ${n}`,
  link_to_crawl: `https://example.com/${n}.xml`,
  thumbnail_location: null,
});

/** A promise the test resolves when it wants the server to answer. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('RssSourceList', () => {
  it('says why a feed cannot be read while it fails, when it was tried, and retries it', async () => {
    const refused = 'refused to fetch intranet.example: it resolves to 10.0.0.5, a private network address';
    const tried = new Date(Date.now() - 5 * 60_000).toISOString();
    const next = new Date(Date.now() + 55 * 60_000).toISOString();
    const failingSource = { ...source(1), last_error: refused, last_attempt_at: tried, next_attempt_at: next };
    const fineSource = { ...source(2), last_attempt_at: tried, last_fetched_at: tried, next_attempt_at: next };
    const calls = stubApi({
      'GET /api/source/rss': () => json(200, { results: [failingSource, fineSource] }),
      'POST /api/source/rss/rss_1/retry': () =>
        json(200, { ...failingSource, next_attempt_at: new Date().toISOString() }),
    });
    renderWithProviders(<RssSourceList />, { route: '/connect/rss' });
    const [failing, fine] = await screen.findAllByTestId('rss-source');
    expect(failing).toHaveTextContent(`Could not be fetched: ${refused}`);
    expect(failing).toHaveTextContent('Last tried 5 mins ago; next try in 55 mins; never read.');
    expect(fine).not.toHaveTextContent('Could not be fetched');
    expect(within(fine).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();

    await userEvent.click(within(failing).getByRole('button', { name: 'Retry Feed 1 now' }));
    expect(calls.some((c) => c.key === 'POST /api/source/rss/rss_1/retry')).toBe(true);
    expect(await within(failing).findByText('Trying Feed 1 again…')).toBeInTheDocument();
  });

  it('says a feed just followed is not fetched yet', async () => {
    stubApi({ 'GET /api/source/rss': () => json(200, { results: [{ ...source(3), next_attempt_at: new Date().toISOString() }] }) });
    renderWithProviders(<RssSourceList />, { route: '/connect/rss' });
    expect(await screen.findByText(/Not fetched yet/)).toBeInTheDocument();
  });

  it('shows the new priority at once and keeps it when the server agrees', async () => {
    const answer = deferred<Response>();
    const calls = stubApi({
      'GET /api/source/rss': () => json(200, { results: [source(1)] }),
      'PUT /api/source/rss/rss_1': () => answer.promise,
    });
    renderWithProviders(<RssSourceList />, { route: '/connect/rss' });
    const select = await screen.findByRole('combobox', { name: 'Priority of Feed 1' });
    await userEvent.selectOptions(select, 'HIGH');

    expect(select).toHaveValue('HIGH');
    expect(calls.find((c) => c.key === 'PUT /api/source/rss/rss_1')?.body).toEqual({ priority: 'HIGH' });
    answer.resolve(json(200, source(1, 'HIGH')));
    expect(await screen.findByText(PRIORITY_UPDATED)).toBeInTheDocument();
    expect(select).toHaveValue('HIGH');
  });

  it('goes back to the old priority with the spec toast when the server refuses', async () => {
    const answer = deferred<Response>();
    stubApi({
      'GET /api/source/rss': () => json(200, { results: [source(1)] }),
      'PUT /api/source/rss/rss_1': () => answer.promise,
    });
    renderWithProviders(<RssSourceList />, { route: '/connect/rss' });
    const select = await screen.findByRole('combobox', { name: 'Priority of Feed 1' });
    await userEvent.selectOptions(select, 'LOW');
    expect(select).toHaveValue('LOW');

    answer.resolve(json(500, { code: 'internal', message: 'internal error' }));
    expect(await screen.findByText(PRIORITY_FAILED)).toBeInTheDocument();
    await waitFor(() => expect(select).toHaveValue('MEDIUM'));
  });

  it('sets one priority on the checked sources with the bulk call', async () => {
    const calls = stubApi({
      'GET /api/source/rss': () => json(200, { results: [source(1), source(2), source(3)] }),
      'PUT /api/source/rss/priority': () => json(200, { results: [source(1, 'LOW'), source(3, 'LOW')] }),
    });
    renderWithProviders(<RssSourceList />, { route: '/connect/rss' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Feed 1' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Feed 3' }));
    const bar = screen.getByRole('group', { name: 'Bulk priority' });
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();
    await userEvent.selectOptions(within(bar).getByRole('combobox'), 'LOW');
    await userEvent.click(within(bar).getByRole('button', { name: 'Set priority' }));

    expect(calls.find((c) => c.key === 'PUT /api/source/rss/priority')?.body).toEqual({
      source_ids: ['rss_1', 'rss_3'],
      priority: 'LOW',
    });
    expect(screen.getByRole('combobox', { name: 'Priority of Feed 2' })).toHaveValue('MEDIUM');
    expect(await screen.findByText(PRIORITY_UPDATED)).toBeInTheDocument();
  });

  it('refuses more than 50 sources with the spec tooltip', async () => {
    stubApi({ 'GET /api/source/rss': () => json(200, { results: Array.from({ length: 51 }, (_, i) => source(i)) }) });
    renderWithProviders(<RssSourceList />, { route: '/connect/rss' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select all' }));
    const bar = screen.getByRole('group', { name: 'Bulk priority' });
    await userEvent.selectOptions(within(bar).getByRole('combobox'), 'HIGH');

    const button = within(bar).getByRole('button', { name: 'Set priority' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(BULK_LIMIT_TOOLTIP);
    expect(screen.getByRole('tooltip')).toHaveTextContent(BULK_LIMIT_TOOLTIP);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Feed 0' }));
    expect(button).toBeEnabled();
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('shows an empty state when no feed is followed', async () => {
    stubApi({ 'GET /api/source/rss': () => json(200, { results: [] }) });
    renderWithProviders(<RssSourceList />, { route: '/connect/rss' });
    expect(await screen.findByRole('heading', { name: 'No feeds yet' })).toBeInTheDocument();
  });

  it('shows the server text when unfollowing fails', async () => {
    stubApi({
      'GET /api/source/rss': () => json(200, { results: [source(1)] }),
      'POST /api/connect/public?delink=true': () => json(404, { code: 'not_following', message: 'you do not follow this source' }),
    });
    renderWithProviders(<RssSourceList />, { route: '/connect/rss' });
    await screen.findByRole('combobox', { name: 'Priority of Feed 1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow Feed 1' }));
    expect(await screen.findByText('you do not follow this source')).toBeInTheDocument();
  });
});

describe('bulkSelectionState', () => {
  it('allows 1 to 50 sources', () => {
    expect(bulkSelectionState(0)).toEqual({ count: 0, canApply: false, overLimit: false });
    expect(bulkSelectionState(1).canApply).toBe(true);
    expect(bulkSelectionState(50)).toEqual({ count: 50, canApply: true, overLimit: false });
    expect(bulkSelectionState(51)).toEqual({ count: 51, canApply: false, overLimit: true });
  });
});
