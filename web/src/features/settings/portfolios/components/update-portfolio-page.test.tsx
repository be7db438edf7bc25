import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import type { Portfolio } from '../api/portfolio-api';
import { UpdatePortfolioPage } from './update-portfolio-page';

const CORE: Portfolio = {
  id: 'p-core',
  name: 'Core holdings',
  holdings: [{ company: 'Apple Inc.', isin: 'US0378331005', quantity: 120.5 }],
  created_at: '2025-01-01T12:00:00Z',
  updated_at: '2025-01-02T12:00:00Z',
};
const SIDE: Portfolio = { ...CORE, id: 'p-side', name: 'Side bets', updated_at: '2025-01-01T12:00:00Z' };

function Address() {
  const { pathname, search } = useLocation();
  return <p data-testid="address">{`${pathname}${search}`}</p>;
}

const render = (route = '/pulse/update-portfolio') =>
  renderWithProviders(
    <>
      <UpdatePortfolioPage />
      <Address />
    </>,
    { route },
  );

const field = (name: string) => screen.getByRole('textbox', { name });

describe('the pulse portfolio page', () => {
  it('creates the portfolio of a user who has none, then stays to edit it', async () => {
    let list: Portfolio[] = [];
    const calls = stubApi({
      'GET /api/portfolios': () => json(200, { portfolios: list }),
      'POST /api/portfolios': () => {
        list = [{ ...CORE, id: 'p-new' }];
        return json(201, list[0]);
      },
      'GET /api/portfolios/p-new': () => json(200, list[0]),
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Create your portfolio' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Cancel' })).not.toBeInTheDocument();
    await userEvent.type(field('Name'), 'Core holdings');
    await userEvent.type(field('Company, row 1'), 'Apple Inc.');
    await userEvent.type(field('ISIN, row 1'), 'US0378331005');
    await userEvent.type(field('Quantity, row 1'), '120.5');
    await userEvent.click(screen.getByRole('button', { name: 'Create portfolio' }));

    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/pulse/update-portfolio?id=p-new'));
    expect(await screen.findByRole('heading', { name: 'Update your portfolio' })).toHaveFocus();
    expect(await screen.findByRole('button', { name: 'Save changes' })).toBeInTheDocument();
    expect(field('Name')).toHaveValue('Core holdings');
    expect(screen.getByText('Portfolio created')).toBeInTheDocument();
    expect(calls.filter((c) => c.key === 'POST /api/portfolios')).toHaveLength(1);
  });

  it('edits the newest portfolio, and offers the others when there are several', async () => {
    const calls = stubApi({
      'GET /api/portfolios': () => json(200, { portfolios: [CORE, SIDE] }),
      'GET /api/portfolios/p-core': () => json(200, CORE),
      'GET /api/portfolios/p-side': () => json(200, SIDE),
      'PUT /api/portfolios/p-core': () => json(200, { ...CORE, name: 'Core', updated_at: '2025-01-03T12:00:00Z' }),
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Update your portfolio' })).toBeInTheDocument();
    await waitFor(() => expect(field('Name')).toHaveValue('Core holdings'));
    expect(screen.getByRole('link', { name: 'Core holdings' })).toHaveAttribute('aria-current', 'page');

    await userEvent.clear(field('Name'));
    await userEvent.type(field('Name'), 'Core');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Portfolio saved')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'PUT /api/portfolios/p-core')?.body).toMatchObject({ name: 'Core' });
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/pulse\/update-portfolio\?id=p-core$/));

    await userEvent.click(screen.getByRole('link', { name: 'Side bets' }));
    await waitFor(() => expect(field('Name')).toHaveValue('Side bets'));
  });

  it('says the portfolio could not be loaded, with Try again', async () => {
    stubApi({ 'GET /api/portfolios': () => json(500, { code: 'internal', message: 'internal error' }) });
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your portfolio could not be loaded');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
