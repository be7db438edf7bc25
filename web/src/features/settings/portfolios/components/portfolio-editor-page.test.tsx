import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import type { Portfolio } from '../api/portfolio-api';
import { PortfolioEditorPage } from './portfolio-editor-page';

const SAVED: Portfolio = {
  id: 'p-core',
  name: 'Core holdings',
  holdings: [
    { company: 'Apple Inc.', isin: 'US0378331005', quantity: 120.5 },
    { company: 'Bayer AG', isin: 'DE000BAY0017', quantity: 10 },
  ],
  created_at: '2025-01-01T12:00:00Z',
  updated_at: '2025-01-02T12:00:00Z',
};

/** The editor at `route`, and the list's address answering with a line, to see the way back. */
const render = (route = '/settings/portfolios/create-portfolio') =>
  renderWithProviders(
    <Routes>
      <Route path="/settings/portfolios" element={<p>the list</p>} />
      <Route path="/settings/portfolios/create-portfolio" element={<PortfolioEditorPage />} />
    </Routes>,
    { route },
  );

const field = (name: string) => screen.getByRole('textbox', { name });

/** Types a holding into row `n` (from 1). */
async function fillRow(n: number, company: string, isin: string, quantity: string) {
  await userEvent.type(field(`Company, row ${n}`), company);
  await userEvent.type(field(`ISIN, row ${n}`), isin);
  await userEvent.type(field(`Quantity, row ${n}`), quantity);
}

describe('creating a portfolio', () => {
  it('saves a name and two holdings typed row after row with Enter, then goes back to the list', async () => {
    const calls = stubApi({ 'POST /api/portfolios': () => json(201, { ...SAVED, id: 'p-new' }) });
    render();
    expect(screen.getByRole('heading', { name: 'Create portfolio' })).toBeInTheDocument();
    expect(field('Name')).toHaveFocus();
    await userEvent.type(field('Name'), 'Core holdings');
    await fillRow(1, 'Apple Inc.', 'us0378331005', '120.5{Enter}');
    expect(field('Company, row 2')).toHaveFocus();
    await fillRow(2, 'Bayer AG', 'DE000BAY0017', '10{Enter}');
    // Enter on the last row added a third; left blank, it is not sent.
    expect(field('Company, row 3')).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Create portfolio' }));

    expect(await screen.findByText('the list')).toBeInTheDocument();
    expect(screen.getByText('Portfolio created')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/portfolios')?.body).toEqual({
      name: 'Core holdings',
      holdings: [
        { company: 'Apple Inc.', isin: 'US0378331005', quantity: 120.5 },
        { company: 'Bayer AG', isin: 'DE000BAY0017', quantity: 10 },
      ],
    });
  });

  it('refuses an invalid ISIN in the browser, beside its row, and sends nothing', async () => {
    const calls = stubApi({});
    render();
    await userEvent.type(field('Name'), 'Core');
    await fillRow(1, 'Apple Inc.', 'US0378331006', '1');
    await userEvent.click(screen.getByRole('button', { name: 'Create portfolio' }));

    const isin = field('ISIN, row 1');
    expect(isin).toHaveAttribute('aria-invalid', 'true');
    expect(isin).toHaveAccessibleDescription('Row 1: US0378331006 is not a valid ISIN (the check digit does not match).');
    expect(isin).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('One thing to fix before saving');
    expect(calls).toHaveLength(0);

    // The message goes as soon as the ISIN is right.
    await userEvent.clear(isin);
    await userEvent.type(isin, 'US0378331005');
    expect(isin).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks for a name and marks each incomplete row', async () => {
    stubApi({});
    render();
    await userEvent.type(field('Company, row 1'), 'Apple Inc.');
    await userEvent.click(screen.getByRole('button', { name: 'Create portfolio' }));
    expect(field('Name')).toHaveAccessibleDescription('Give the portfolio a name.');
    expect(field('Name')).toHaveFocus();
    expect(field('ISIN, row 1')).toHaveAccessibleDescription('Row 1 needs an ISIN.');
    expect(field('Quantity, row 1')).toHaveAccessibleDescription('Row 1 needs a quantity.');
    expect(screen.getByRole('alert')).toHaveTextContent('3 things to fix before saving');
  });

  it('shows the server’s refusal by the form and on the row it names', async () => {
    const message = 'Row 2 repeats US0378331005.';
    stubApi({ 'POST /api/portfolios': () => json(400, { code: 'duplicate_isin', message }) });
    render();
    await userEvent.type(field('Name'), 'Core');
    await fillRow(1, 'Apple Inc.', 'US0378331005', '1');
    await userEvent.click(screen.getByRole('button', { name: 'Add holding' }));
    await fillRow(2, 'Bayer AG', 'DE000BAY0017', '2');
    await userEvent.click(screen.getByRole('button', { name: 'Create portfolio' }));

    expect(await screen.findByTestId('portfolio-refusal')).toHaveTextContent(message);
    expect(field('ISIN, row 2')).toHaveAttribute('aria-invalid', 'true');
    expect(field('ISIN, row 2')).toHaveAccessibleDescription(message);
    expect(field('ISIN, row 2')).toHaveFocus();
    expect(screen.queryByText('the list')).not.toBeInTheDocument();
  });

  it('says plainly when the server could not save', async () => {
    stubApi({ 'POST /api/portfolios': () => json(500, { code: 'internal', message: 'internal error' }) });
    render();
    await userEvent.type(field('Name'), 'Core');
    await userEvent.click(screen.getByRole('button', { name: 'Remove row 1' }));
    expect(screen.getByRole('button', { name: 'Add holding' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Create portfolio' }));
    expect(await screen.findByTestId('portfolio-refusal')).toHaveTextContent('could not be saved just now');
  });

  it('adds holdings pasted as CSV lines, leaving the lines it cannot read with the reason', async () => {
    stubApi({});
    render();
    await userEvent.click(screen.getByText('Paste many holdings'));
    const box = screen.getByRole('textbox', { name: /one a line/ });
    await userEvent.click(box);
    await userEvent.paste('company,isin,quantity\nApple Inc.,US0378331005,120.5\n"Bayer, AG",DE000BAY0017,10\nnonsense');
    await userEvent.click(screen.getByRole('button', { name: 'Add these holdings' }));

    expect(screen.getByText('Added 2 holdings to the table.')).toBeInTheDocument();
    expect(box).toHaveValue('nonsense');
    expect(box).toHaveAccessibleDescription('Line 4 needs a company, an ISIN and a quantity, separated by commas.');
    // The empty first row gave way to the pasted ones.
    expect(field('Company, row 1')).toHaveValue('Apple Inc.');
    expect(field('Company, row 2')).toHaveValue('Bayer, AG');
    expect(field('Quantity, row 2')).toHaveValue('10');
    expect(screen.queryByRole('textbox', { name: 'Company, row 3' })).not.toBeInTheDocument();
  });
});

describe('editing a portfolio', () => {
  it('loads it, and saves a changed quantity and a removed row over it', async () => {
    const calls = stubApi({
      'GET /api/portfolios/p-core': () => json(200, SAVED),
      'PUT /api/portfolios/p-core': () => json(200, { ...SAVED, holdings: [SAVED.holdings[0]] }),
    });
    render('/settings/portfolios/create-portfolio?id=p-core');
    expect(await screen.findByRole('heading', { name: 'Edit portfolio' })).toBeInTheDocument();
    expect(await screen.findByDisplayValue('Core holdings')).toBeInTheDocument();
    expect(field('Quantity, row 1')).toHaveValue('120.5');

    await userEvent.click(screen.getByRole('button', { name: 'Remove row 2' }));
    expect(field('Company, row 1')).toHaveFocus();
    await userEvent.clear(field('Quantity, row 1'));
    await userEvent.type(field('Quantity, row 1'), '200');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('the list')).toBeInTheDocument();
    expect(screen.getByText('Portfolio saved')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'PUT /api/portfolios/p-core')?.body).toEqual({
      name: 'Core holdings',
      holdings: [{ company: 'Apple Inc.', isin: 'US0378331005', quantity: 200 }],
    });
  });

  it('says when the portfolio is not there, with the way back', async () => {
    stubApi({ 'GET /api/portfolios/gone': () => json(404, { code: 'not_found', message: 'portfolio not found' }) });
    render('/settings/portfolios/create-portfolio?id=gone');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This portfolio does not exist, or it is not yours.');
    await userEvent.click(within(alert).getByRole('link', { name: 'Back to your portfolios' }));
    await waitFor(() => expect(screen.getByText('the list')).toBeInTheDocument());
  });
});
