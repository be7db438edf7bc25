import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { COMPANY_FOLLOWED, COMPANY_REQUIRED } from '../messages';
import { amat, appHarvest, apple, edgarAnswer, followed, FORMS } from '../test/edgar-fixtures';
import { EdgarFollowForm } from './edgar-follow-form';
import { EdgarPage } from './edgar-page';

const SEARCH_APP = 'GET /api/connect/edgar/companies?q=app';
const box = () => screen.getByRole('combobox', { name: 'Company' });
const searches = (calls: Array<{ key: string }>) => calls.filter((c) => c.key.startsWith('GET /api/connect/edgar/companies'));
const renderForm = () => renderWithProviders(<EdgarFollowForm forms={FORMS} />, { route: '/connect/edgar' });

describe('EdgarFollowForm', () => {
  it('offers the companies matching what was typed, asked for once typing pauses', async () => {
    const calls = stubApi({ [SEARCH_APP]: () => json(200, { companies: [apple, amat, appHarvest] }) });
    renderForm();
    await userEvent.type(box(), 'app');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Apple Inc. · AAPL · CIK 320193',
      'Applied Materials, Inc. · AMAT · CIK 6951',
      'AppHarvest, Inc. · CIK 1807846',
    ]);
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    expect(box()).toHaveAttribute('aria-controls', screen.getByRole('listbox', { name: 'Matching companies' }).id);
    expect(searches(calls).map((c) => c.key)).toEqual([SEARCH_APP]);
  });

  it('moves through the options with the arrow keys, picks one with Enter and follows its CIK with the ticked forms', async () => {
    const calls = stubApi({
      [SEARCH_APP]: () => json(200, { companies: [apple, amat] }),
      'POST /api/connect/edgar': () => json(200, followed({ forms: ['10-K', '8-K'] })),
    });
    renderForm();
    await userEvent.type(box(), 'app');
    await screen.findAllByRole('option');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    const first = screen.getByRole('option', { name: /^Apple Inc\./ });
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(box()).toHaveAttribute('aria-activedescendant', first.id);
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getByRole('option', { name: /^Applied Materials/ })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowUp}{Enter}');

    expect(box()).toHaveValue('Apple Inc. · AAPL · CIK 320193');
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(calls.some((c) => c.key === 'POST /api/connect/edgar')).toBe(false);

    await userEvent.click(screen.getByRole('checkbox', { name: '10-K annual report' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '8-K current report' }));
    await userEvent.click(box());
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(box()).toHaveValue(''));
    expect(calls.find((c) => c.key === 'POST /api/connect/edgar')?.body).toEqual({ company: '0000320193', forms: ['10-K', '8-K'] });
    expect(screen.getByRole('checkbox', { name: '10-K annual report' })).not.toBeChecked();
    expect(await within(screen.getByRole('region', { name: 'Notifications' })).findByText(COMPANY_FOLLOWED)).toBeInTheDocument();
  });

  it('keeps the less common forms under More forms, and sends those ticked there', async () => {
    const calls = stubApi({ 'POST /api/connect/edgar': () => json(200, followed({ forms: ['10-Q', '4'] })) });
    renderForm();
    const more = screen.getByText('More forms (1)').closest('details');
    expect(more).not.toHaveAttribute('open');
    expect(more).toContainElement(screen.getByRole('checkbox', { name: '4' }));
    expect(more).not.toContainElement(screen.getByRole('checkbox', { name: '10-Q quarterly report' }));
    await userEvent.click(screen.getByText('More forms (1)'));
    expect(more).toHaveAttribute('open');
    await userEvent.click(screen.getByRole('checkbox', { name: '4' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '10-Q quarterly report' }));
    await userEvent.type(box(), 'AAPL');
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /api/connect/edgar')).toBe(true));
    expect(calls.find((c) => c.key === 'POST /api/connect/edgar')?.body).toEqual({ company: 'AAPL', forms: ['10-Q', '4'] });
  });

  it('picks an option with the pointer', async () => {
    stubApi({ [SEARCH_APP]: () => json(200, { companies: [apple, amat] }) });
    renderForm();
    await userEvent.type(box(), 'app');
    await userEvent.click(await screen.findByRole('option', { name: /^Applied Materials/ }));
    expect(box()).toHaveValue('Applied Materials, Inc. · AMAT · CIK 6951');
    expect(box()).toHaveFocus();
  });

  it('follows a ticker as typed, with every form when none is ticked', async () => {
    const calls = stubApi({
      'GET /api/connect/edgar/companies?q=MSFT': () => json(200, { companies: [] }),
      'POST /api/connect/edgar': () => json(200, followed({ name: 'Microsoft Corp', ticker: 'MSFT', cik: '0000789019' })),
    });
    renderForm();
    await userEvent.type(box(), ' MSFT {Enter}');
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /api/connect/edgar')).toBe(true));
    expect(calls.find((c) => c.key === 'POST /api/connect/edgar')?.body).toEqual({ company: 'MSFT', forms: [] });
  });

  it('closes the options on Escape, and clears the box on a second Escape', async () => {
    stubApi({ [SEARCH_APP]: () => json(200, { companies: [apple] }) });
    renderForm();
    await userEvent.type(box(), 'app');
    await screen.findByRole('option');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box()).toHaveValue('app');
    await userEvent.keyboard('{ArrowDown}');
    expect(await screen.findByRole('option')).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Escape}{Escape}');
    expect(box()).toHaveValue('');
  });

  it('says it is searching, then that nothing matches', async () => {
    let answer!: (response: Response) => void;
    stubApi({ 'GET /api/connect/edgar/companies?q=zzz': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderForm();
    await userEvent.type(box(), 'zzz');
    await waitFor(() => expect(answer).toBeDefined());
    expect(screen.getByRole('status')).toHaveTextContent('Searching…');
    answer(json(200, { companies: [] }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('No company matches “zzz”. Follow it as typed if it is a ticker or a CIK.'),
    );
    expect(box()).toHaveAttribute('aria-expanded', 'false');
  });

  it('says where the options go that the server has no company list yet, without a toast', async () => {
    stubApi({
      [SEARCH_APP]: () =>
        json(422, { code: 'company_list_missing', message: 'the company list has not been downloaded yet' }),
    });
    renderForm();
    await userEvent.type(box(), 'app');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'The company list has not been downloaded yet. You can still follow a company by its CIK.',
      ),
    );
    expect(within(screen.getByRole('region', { name: 'Notifications' })).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks for a company before calling the server', async () => {
    const calls = stubApi({});
    renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.getByText(COMPANY_REQUIRED)).toBeInTheDocument();
    expect(box()).toHaveAttribute('aria-invalid', 'true');
    expect(box()).toHaveAccessibleDescription(expect.stringContaining(COMPANY_REQUIRED));
    expect(calls).toEqual([]);
  });

  it("shows the server's reason beside the form when it refuses", async () => {
    stubApi({
      'GET /api/connect/edgar/companies?q=ZZZZ': () => json(200, { companies: [] }),
      'POST /api/connect/edgar': () => json(422, { code: 'unknown_company', message: 'no company has the ticker or CIK "ZZZZ"' }),
    });
    renderForm();
    await userEvent.type(box(), 'ZZZZ{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('No company has the ticker or CIK "ZZZZ".');
    expect(box()).toHaveValue('ZZZZ');
  });
});

describe('following from the page', () => {
  it('adds the company to the list', async () => {
    let companies = [followed()];
    const msft = followed({ source_id: 'edgar_src_9', name: 'Microsoft Corp', ticker: 'MSFT', cik: '0000789019', filings: 0 });
    stubApi({
      'GET /api/connect/edgar': () => edgarAnswer(companies),
      'GET /api/connect/edgar/companies?q=MSFT': () => json(200, { companies: [] }),
      'POST /api/connect/edgar': () => {
        companies = [...companies, msft];
        return json(200, msft);
      },
    });
    renderWithProviders(<EdgarPage />, { route: '/connect/edgar' });
    await userEvent.type(await screen.findByRole('combobox', { name: 'Company' }), 'MSFT{Enter}');
    expect(await screen.findByRole('listitem', { name: 'Microsoft Corp' })).toBeInTheDocument();
  });

  it('shows why EDGAR is off when the server says it is not set up', async () => {
    let enabled = true;
    stubApi({
      'GET /api/connect/edgar': () =>
        edgarAnswer([], enabled ? {} : { enabled: false, reason: 'sec edgar is not set up on this server' }),
      'GET /api/connect/edgar/companies?q=AAPL': () => json(200, { companies: [] }),
      'POST /api/connect/edgar': () => {
        enabled = false;
        return json(503, { code: 'edgar_not_configured', message: 'sec edgar is not set up on this server' });
      },
    });
    renderWithProviders(<EdgarPage />, { route: '/connect/edgar' });
    await userEvent.type(await screen.findByRole('combobox', { name: 'Company' }), 'AAPL{Enter}');
    expect(await screen.findByRole('heading', { name: 'SEC filings are not available on this instance' })).toBeInTheDocument();
    expect(screen.getByText('Sec edgar is not set up on this server.')).toBeInTheDocument();
  });
});
