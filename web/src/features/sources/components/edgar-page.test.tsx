import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { COMPANY_UNFOLLOWED } from '../messages';
import { ago, ahead, edgarAnswer, followed } from '../test/edgar-fixtures';
import { EdgarPage } from './edgar-page';

const renderPage = () => renderWithProviders(<EdgarPage />, { route: '/connect/edgar' });
const row = (name: string) => screen.getByRole('listitem', { name });
const toasts = () => within(screen.getByRole('region', { name: 'Notifications' }));

const failing = followed({
  source_id: 'edgar_src_2',
  cik: '0001018724',
  ticker: null,
  name: 'Amazon.com, Inc.',
  forms: ['10-K', '10-Q'],
  filings: 1,
  last_fetched_at: ago(3 * 24 * 60),
  last_attempt_at: ago(10),
  next_attempt_at: ahead(50),
  last_error: 'edgar answered 429: too many requests',
});

describe('EdgarPage', () => {
  it('lists each followed company with its forms, filings, checks and last error, and no internal id', async () => {
    stubApi({ 'GET /api/connect/edgar': () => edgarAnswer([followed(), failing]) });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Followed companies' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);

    const appleRow = row('Apple Inc.');
    expect(within(appleRow).getByText('AAPL · CIK 320193')).toBeInTheDocument();
    expect(within(appleRow).getByText('All forms · 12 filings brought in')).toBeInTheDocument();
    expect(within(appleRow).getByText('Last checked 5 mins ago · next check in 55 mins')).toBeInTheDocument();
    expect(within(appleRow).queryByText(/failed/)).not.toBeInTheDocument();

    const amazonRow = row('Amazon.com, Inc.');
    expect(within(amazonRow).getByText('CIK 1018724')).toBeInTheDocument();
    expect(within(amazonRow).getByText('10-K, 10-Q · 1 filing brought in')).toBeInTheDocument();
    expect(within(amazonRow).getByText(/^The last check failed: Edgar answered 429: too many requests\./)).toHaveTextContent(
      'It last worked 3 days ago.',
    );
    expect(document.body).not.toHaveTextContent(/edgar_src/);
  });

  it('says when a company has not been checked yet', async () => {
    stubApi({
      'GET /api/connect/edgar': () =>
        edgarAnswer([followed({ filings: 0, last_fetched_at: null, last_attempt_at: null, next_attempt_at: ahead(30) })]),
    });
    renderPage();
    expect(await screen.findByText('Not checked yet; first check in 30 mins')).toBeInTheDocument();
    expect(screen.getByText('All forms · No filings brought in yet')).toBeInTheDocument();
  });

  it('shows a skeleton while the page loads', async () => {
    stubApi({ 'GET /api/connect/edgar': () => new Promise<Response>(() => {}) });
    renderPage();
    expect(await screen.findByRole('status', { name: 'Loading SEC filings' })).toBeInTheDocument();
    expect(screen.getByTestId('edgar-skeleton')).toBeInTheDocument();
  });

  it('offers the form and says what following does while no company is followed', async () => {
    stubApi({ 'GET /api/connect/edgar': () => edgarAnswer([]) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No companies followed yet' })).toBeInTheDocument();
    expect(screen.getByText(/each new filing it makes with the SEC arrives in My Data/)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Company' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: '10-K annual report' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'DEF 14A proxy statement' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: '4' })).toBeInTheDocument();
  });

  it('explains why EDGAR is off instead of offering the form, and lists nothing', async () => {
    stubApi({
      'GET /api/connect/edgar': () =>
        edgarAnswer([], { enabled: false, reason: 'the operator has not set --edgar-user-agent', forms: [] }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'SEC filings are not available on this instance' })).toBeInTheDocument();
    expect(screen.getByText('The operator has not set --edgar-user-agent.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Followed companies' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'No companies followed yet' })).not.toBeInTheDocument();
  });

  it('still lists the companies followed before EDGAR was turned off, to unfollow but not to check', async () => {
    stubApi({
      'GET /api/connect/edgar': () => edgarAnswer([followed()], { enabled: false, reason: 'sec edgar was turned off', forms: [] }),
    });
    renderPage();
    expect(await screen.findByText('Sec edgar was turned off.')).toBeInTheDocument();
    expect(within(row('Apple Inc.')).getByRole('button', { name: 'Unfollow Apple Inc.' })).toBeInTheDocument();
    expect(within(row('Apple Inc.')).queryByRole('button', { name: /Check/ })).not.toBeInTheDocument();
    expect(within(row('Apple Inc.')).getByText('Last checked 5 mins ago')).toBeInTheDocument();
  });

  it('shows an error state with a retry', async () => {
    stubApi({ 'GET /api/connect/edgar': () => json(500, { code: 'internal', message: 'x' }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Your followed companies could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('asks for a check now and says the company is being checked until the check is recorded', async () => {
    let apple = followed();
    const calls = stubApi({
      'GET /api/connect/edgar': () => edgarAnswer([apple]),
      'POST /api/connect/edgar/edgar_src_1/refresh': () => {
        apple = followed({ next_attempt_at: ago(0) });
        return json(200, apple);
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Check now for Apple Inc.' }));
    expect(await within(row('Apple Inc.')).findByText('Checking EDGAR for new filings…')).toBeInTheDocument();
    const checking = within(row('Apple Inc.')).getByRole('button', { name: 'Checking Apple Inc.' });
    expect(checking).toHaveAttribute('aria-disabled', 'true');
    expect(calls.filter((c) => c.key === 'POST /api/connect/edgar/edgar_src_1/refresh')).toHaveLength(1);

    // The server records the check; the list, asked again while the check is due, shows it.
    apple = followed({ last_attempt_at: ago(0), next_attempt_at: ahead(60), filings: 13 });
    expect(await within(row('Apple Inc.')).findByText('All forms · 13 filings brought in', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(within(row('Apple Inc.')).getByRole('button', { name: 'Check now for Apple Inc.' })).not.toHaveAttribute('aria-disabled');
  });

  it('unfollows a company, says so, and keeps keyboard focus on the list', async () => {
    let companies = [followed(), failing];
    const calls = stubApi({
      'GET /api/connect/edgar': () => edgarAnswer(companies),
      'DELETE /api/connect/edgar/edgar_src_1': () => {
        companies = [failing];
        return new Response(null, { status: 204 });
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow Apple Inc.' }));
    await waitFor(() => expect(screen.queryByText('Apple Inc.')).not.toBeInTheDocument());
    expect(calls.some((c) => c.key === 'DELETE /api/connect/edgar/edgar_src_1')).toBe(true);
    expect(await toasts().findByText(COMPANY_UNFOLLOWED)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Followed companies' })).toHaveFocus();
  });

  it("shows the server's words when unfollowing fails", async () => {
    stubApi({
      'GET /api/connect/edgar': () => edgarAnswer([followed()]),
      'DELETE /api/connect/edgar/edgar_src_1': () => json(404, { code: 'not_following', message: 'you do not follow this company' }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow Apple Inc.' }));
    expect(await toasts().findByText('You do not follow this company.')).toBeInTheDocument();
    expect(row('Apple Inc.')).toBeInTheDocument();
  });
});
