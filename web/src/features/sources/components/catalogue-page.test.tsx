import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { PublicSource } from '../api/catalogue-api';
import { FOLLOW_FAILED, FOLLOW_LIMIT_TOOLTIP } from '../messages';
import { CataloguePage } from './catalogue-page';

const source = (key: string, title: string, group: string | null, extra: Partial<PublicSource> = {}): PublicSource => ({
  key,
  title,
  group,
  kind: 'source',
  fetchable: true,
  following: false,
  ...extra,
});

const annual = source('bse_annual_reports', 'BSE Annual Reports', 'Indian Capital Markets');
const filings = source('bse_filings', 'BSE Filings', 'Indian Capital Markets', { following: true });
const calls = source('earnings_conf_calls', 'Earnings Conference Calls', 'US Capital Markets');
const nzx = source('nzx_filings', 'NZX Filings', null, { fetchable: false });
const catalogue = (...results: PublicSource[]) => json(200, { results });

/** A promise the test resolves when it wants the server to answer. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function Address() {
  const { search } = useLocation();
  return <output data-testid="address">{search}</output>;
}

const renderPage = (route = '/connect/public') =>
  renderWithProviders(
    <>
      <CataloguePage />
      <Address />
    </>,
    { route },
  );

const rows = () => screen.getAllByTestId('public-source');
const row = (title: string) => screen.getByRole('listitem', { name: title });
const shownKeys = () => rows().map((r) => r.dataset.key);

describe('CataloguePage', () => {
  it("lists the catalogue with each entry's group, key and whether it is followed, and says when nothing is fetched for one", async () => {
    stubApi({ 'GET /api/source/public': () => catalogue(annual, filings, calls, nzx) });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Public sources' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    expect(screen.getByText('4 sources')).toBeInTheDocument();

    expect(within(row('BSE Filings')).getByText('Following')).toBeVisible();
    expect(within(row('BSE Filings')).getByRole('button', { name: 'Unfollow BSE Filings' })).toBeInTheDocument();
    expect(within(row('BSE Filings')).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(row('BSE Annual Reports')).getByText('Following')).not.toBeVisible();
    expect(within(row('BSE Annual Reports')).getByText('Indian Capital Markets')).toBeInTheDocument();
    expect(within(row('BSE Annual Reports')).getByText('bse_annual_reports')).toBeInTheDocument();

    const unfetched = within(row('NZX Filings'));
    expect(unfetched.getByText('No group')).toBeInTheDocument();
    expect(unfetched.getByText(/Not fetched on this instance yet/)).toBeInTheDocument();
    expect(unfetched.getByRole('button', { name: 'Follow NZX Filings' })).toHaveAccessibleDescription(/brings in nothing/);
  });

  it('leaves out the entries the server marks as apps, whatever their keys', async () => {
    const gmail = source('gmail', 'Gmail', null, { kind: 'app' });
    const custom = source('websitecrawl', 'Custom URL', null, { kind: 'app' });
    const intranet = source('intranet_mail', 'Intranet Mail', null, { kind: 'app' });
    // A key the web app once hid by name is listed when the server says it is a source.
    const outlook = source('outlook', 'Outlook Newsroom', null);
    stubApi({ 'GET /api/source/public': () => catalogue(annual, gmail, custom, intranet, nzx, outlook) });
    renderPage();
    await screen.findByRole('list', { name: 'Public sources' });
    expect(shownKeys()).toEqual(['bse_annual_reports', 'nzx_filings', 'outlook']);
    expect(screen.getByText('3 sources')).toBeInTheDocument();
  });

  it('searches and filters, keeping the filter in the address, and says when nothing matches', async () => {
    stubApi({ 'GET /api/source/public': () => catalogue(annual, filings, calls, nzx) });
    renderPage();
    const search = await screen.findByRole('searchbox', { name: 'Search sources' });

    await userEvent.type(search, 'filings');
    expect(shownKeys()).toEqual(['bse_filings', 'nzx_filings']);
    expect(screen.getByText('2 of 4 sources')).toBeInTheDocument();
    expect(screen.getByTestId('address')).toHaveTextContent('?q=filings');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Group' }), 'No group');
    expect(shownKeys()).toEqual(['nzx_filings']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Group' }), 'All groups');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'Followed');
    expect(shownKeys()).toEqual(['bse_filings']);
    expect(screen.getByTestId('address')).toHaveTextContent('?q=filings&show=following');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Only sources fetched here' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'Not followed');
    expect(screen.getByRole('heading', { name: 'No sources match' })).toBeInTheDocument();

    const clear = screen.getAllByRole('button', { name: 'Clear filters' });
    await userEvent.click(clear[clear.length - 1]);
    expect(rows()).toHaveLength(4);
    expect(search).toHaveValue('');
    expect(screen.getByTestId('address')).toHaveTextContent(/^$/);
  });

  it('opens narrowed by the address', async () => {
    stubApi({ 'GET /api/source/public': () => catalogue(annual, filings, calls, nzx) });
    renderPage('/connect/public?group=US+Capital+Markets');
    await screen.findByRole('list', { name: 'Public sources' });
    expect(shownKeys()).toEqual(['earnings_conf_calls']);
    expect(screen.getByRole('combobox', { name: 'Group' })).toHaveValue('US Capital Markets');
  });

  it('follows an entry at once, keeps the focus on its button, and refetches the catalogue when the server agrees', async () => {
    const answer = deferred<Response>();
    let following = false;
    const api = stubApi({
      'GET /api/source/public': () => catalogue({ ...annual, following }, filings),
      'POST /api/connect/public': () => answer.promise,
    });
    renderPage();
    const follow = await screen.findByRole('button', { name: 'Follow BSE Annual Reports' });
    await userEvent.click(follow);

    const entry = row('BSE Annual Reports');
    expect(entry).toHaveAttribute('data-following', 'true');
    expect(within(entry).getByText('Following')).toBeVisible();
    expect(follow).toHaveAccessibleName('Unfollow BSE Annual Reports');
    expect(follow).toHaveFocus();
    expect(screen.getByText('Following BSE Annual Reports.')).toBeInTheDocument();
    expect(api.find((c) => c.key === 'POST /api/connect/public')?.body).toEqual({ key: 'bse_annual_reports' });

    following = true;
    answer.resolve(json(200, { source_id: 'bse_annual_reports', following: true }));
    await waitFor(() => expect(api.filter((c) => c.key === 'GET /api/source/public')).toHaveLength(2));
    expect(entry).toHaveAttribute('data-following', 'true');
  });

  it("puts a refused follow back with the spec's text when the server gives no reason", async () => {
    const answer = deferred<Response>();
    stubApi({
      'GET /api/source/public': () => catalogue(annual, filings),
      'POST /api/connect/public': () => answer.promise,
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Follow BSE Annual Reports' }));
    expect(row('BSE Annual Reports')).toHaveAttribute('data-following', 'true');

    answer.resolve(json(500, { code: 'internal', message: 'internal error' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(FOLLOW_FAILED);
    await waitFor(() => expect(row('BSE Annual Reports')).toHaveAttribute('data-following', 'false'));
    expect(row('BSE Filings')).toHaveAttribute('data-following', 'true');
  });

  it("unfollows an entry, and puts it back with the server's reason when it refuses", async () => {
    const api = stubApi({
      'GET /api/source/public': () => catalogue(annual, filings),
      'POST /api/connect/public?delink=true': () => json(422, { code: 'invalid_key', message: "a source key has letters, digits, '_', '.' or '-'" }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow BSE Filings' }));
    expect(api.find((c) => c.key === 'POST /api/connect/public?delink=true')?.body).toEqual({ key: 'bse_filings' });
    expect(await screen.findByRole('alert')).toHaveTextContent("a source key has letters, digits, '_', '.' or '-'");
    await waitFor(() => expect(row('BSE Filings')).toHaveAttribute('data-following', 'true'));
  });

  it('follows the selected entries in one call, and offers only those not followed yet', async () => {
    const answer = deferred<Response>();
    const api = stubApi({
      'GET /api/source/public': () => catalogue(annual, filings, calls, nzx),
      'POST /api/connect/public/multiple': () => answer.promise,
    });
    renderPage();
    await screen.findByRole('list', { name: 'Public sources' });
    expect(screen.queryByRole('group', { name: 'Selected sources' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    const bar = screen.getByRole('group', { name: 'Selected sources' });
    expect(within(bar).getByText('3 selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select NZX Filings' }));
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();

    await userEvent.click(within(bar).getByRole('button', { name: 'Follow selected' }));
    expect(api.find((c) => c.key === 'POST /api/connect/public/multiple')?.body).toEqual({
      keys: ['bse_annual_reports', 'earnings_conf_calls'],
    });
    expect(rows().map((r) => r.dataset.following)).toEqual(['true', 'true', 'true', 'false']);
    expect(screen.queryByRole('group', { name: 'Selected sources' })).not.toBeInTheDocument();
    expect(screen.getByText('Following 2 sources.')).toBeInTheDocument();

    answer.resolve(json(200, [{ source_id: 'bse_annual_reports', following: true }, { source_id: 'earnings_conf_calls', following: true }]));
    await waitFor(() => expect(api.filter((c) => c.key === 'GET /api/source/public')).toHaveLength(2));
  });

  it('says why more than 100 selected cannot be followed at once', async () => {
    const many = Array.from({ length: 101 }, (_, n) => source(`src_${n}`, `Source ${n}`, null));
    stubApi({ 'GET /api/source/public': () => catalogue(...many) });
    renderPage();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select all shown' }));
    const follow = within(screen.getByRole('group', { name: 'Selected sources' })).getByRole('button', { name: 'Follow selected' });
    expect(follow).toBeDisabled();
    expect(follow).toHaveAccessibleDescription(FOLLOW_LIMIT_TOOLTIP);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Source 0' }));
    expect(follow).toBeEnabled();
  });

  it('puts the selected entries back as they were when following them fails', async () => {
    stubApi({
      'GET /api/source/public': () => catalogue(annual, filings, calls),
      'POST /api/connect/public/multiple': () => json(500, { code: 'internal', message: 'internal error' }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Earnings Conference Calls' }));
    await userEvent.click(screen.getByRole('button', { name: 'Follow selected' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(FOLLOW_FAILED);
    await waitFor(() => expect(rows().map((r) => r.dataset.following)).toEqual(['false', 'true', 'false']));
  });

  it('shows loading, then the failure with Try again, then an empty catalogue', async () => {
    let answer: () => Response = () => json(500, { code: 'internal', message: 'internal error' });
    stubApi({ 'GET /api/source/public': () => answer() });
    renderPage();
    expect(screen.getByText('Loading public sources')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'The public sources could not be loaded' })).toBeInTheDocument();

    answer = () => catalogue();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'This instance offers no public sources' })).toBeInTheDocument();
    expect(screen.queryByRole('search')).not.toBeInTheDocument();
  });

  it("links to the suggested news feeds and to following a US company's SEC filings", async () => {
    stubApi({ 'GET /api/source/public': () => catalogue(annual) });
    renderPage();
    expect(await screen.findByRole('link', { name: 'Browse suggested feeds' })).toHaveAttribute('href', '/connect/rssTopics');
    expect(screen.getByRole('link', { name: "Follow a US company's SEC filings" })).toHaveAttribute('href', '/connect/edgar');
  });
});
