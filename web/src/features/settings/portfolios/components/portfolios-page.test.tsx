import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import type { Portfolio } from '../api/portfolio-api';
import { PortfoliosPage } from './portfolios-page';
import { updatedText } from './portfolio-item';

const CORE: Portfolio = {
  id: 'p-core',
  name: 'Core holdings',
  holdings: [
    { company: 'Apple Inc.', isin: 'US0378331005', quantity: 120.5 },
    { company: 'Bayer AG', isin: 'DE000BAY0017', quantity: 10 },
  ],
  created_at: '2025-01-01T12:00:00Z',
  updated_at: '2025-01-02T12:00:00Z',
};
const WATCH: Portfolio = { ...CORE, id: 'p-watch', name: 'Watch list', holdings: [CORE.holdings[0]] };

const render = () => renderWithProviders(<PortfoliosPage />, { route: '/settings/portfolios' });

describe('portfolios page', () => {
  it('lists each portfolio with its number of holdings and when it changed, opened to edit', async () => {
    stubApi({ 'GET /api/portfolios': () => json(200, { portfolios: [CORE, WATCH] }) });
    render();
    const core = await screen.findByRole('listitem', { name: 'Core holdings' });
    expect(core).toHaveTextContent('2 holdings · updated on 02-01-2025');
    expect(within(core).getByRole('link', { name: 'Core holdings' })).toHaveAttribute(
      'href',
      '/settings/portfolios/create-portfolio?id=p-core',
    );
    expect(within(core).getByRole('link', { name: 'Edit Core holdings' })).toHaveAttribute(
      'href',
      '/settings/portfolios/create-portfolio?id=p-core',
    );
    expect(screen.getByRole('listitem', { name: 'Watch list' })).toHaveTextContent('1 holding ·');
    expect(screen.getByRole('link', { name: 'Create portfolio' })).toHaveAttribute('href', '/settings/portfolios/create-portfolio');
    expect(screen.queryByText(/120\.5/)).not.toBeInTheDocument();
  });

  it('says when a portfolio changed in words while it is recent', () => {
    const now = new Date('2025-01-02T12:05:00Z');
    expect(updatedText('2025-01-02T12:00:00Z', now)).toBe('updated 5 mins ago');
    expect(updatedText('2025-01-01T11:00:00Z', now)).toBe('updated yesterday');
  });

  it('shows a loading state, then invites the user to create a first portfolio', async () => {
    let answer: (response: Response) => void = () => {};
    stubApi({ 'GET /api/portfolios': () => new Promise<Response>((resolve) => (answer = resolve)) });
    render();
    expect(await screen.findByRole('status', { name: 'Loading your portfolios' })).toBeInTheDocument();
    answer(json(200, { portfolios: [] }));
    expect(await screen.findByRole('heading', { name: 'No portfolios yet' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Create portfolio' })).toHaveLength(1);
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    let calls = 0;
    stubApi({
      'GET /api/portfolios': () =>
        ++calls === 1 ? json(500, { code: 'internal', message: 'internal error' }) : json(200, { portfolios: [CORE] }),
    });
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your portfolios could not be loaded');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'Core holdings' })).toBeInTheDocument();
  });

  it('deletes a portfolio once the user confirms, and says so', async () => {
    const portfolios = [CORE, WATCH];
    const calls = stubApi({
      'GET /api/portfolios': () => json(200, { portfolios }),
      'DELETE /api/portfolios/p-core': () => {
        portfolios.splice(0, 1);
        return new Response(null, { status: 204 });
      },
    });
    render();
    await userEvent.click(
      within(await screen.findByRole('listitem', { name: 'Core holdings' })).getByRole('button', { name: 'Delete Core holdings' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete Core holdings?' });
    expect(dialog).toHaveTextContent('Its 2 holdings go with it.');
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete portfolio' }));
    expect(await screen.findByText('Portfolio deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('listitem', { name: 'Core holdings' })).not.toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Watch list' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Portfolios' })).toHaveFocus();
    expect(calls.filter((c) => c.key === 'DELETE /api/portfolios/p-core')).toHaveLength(1);
  });

  it('deletes nothing when the user cancels', async () => {
    const calls = stubApi({ 'GET /api/portfolios': () => json(200, { portfolios: [CORE] }) });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Core holdings' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Core holdings' })).toHaveFocus();
    expect(calls.some((c) => c.key.startsWith('DELETE'))).toBe(false);
  });

  it('says so in the dialog when the portfolio was already deleted, and refreshes the list', async () => {
    const portfolios = [CORE];
    stubApi({
      'GET /api/portfolios': () => json(200, { portfolios }),
      'DELETE /api/portfolios/p-core': () => {
        portfolios.splice(0, 1);
        return json(404, { code: 'not_found', message: 'portfolio not found' });
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Core holdings' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete portfolio' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This portfolio was already deleted.');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Core holdings' })).not.toBeInTheDocument());
  });
});
