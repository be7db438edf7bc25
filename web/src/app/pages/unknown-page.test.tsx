import { screen } from '@testing-library/react';
import { renderWithProviders, stubApi } from '../../test/render';
import { UnknownPage } from './unknown-page';

describe('the catch-all page', () => {
  it('keeps an unknown settings address among the settings tabs, with the way back to User Settings', async () => {
    stubApi({});
    renderWithProviders(<UnknownPage />, { route: '/settings/storage/needldrive/application%2Fpdf/more' });
    expect(await screen.findByRole('heading', { name: 'There is no settings page at this address' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to User Settings' })).toHaveAttribute('href', '/settings/user-settings');
  });

  it('shows the app’s not-found page anywhere else', () => {
    stubApi({});
    renderWithProviders(<UnknownPage />, { route: '/settingsx/y' });
    expect(screen.getByRole('heading', { name: 'There is no page at this address' })).toBeInTheDocument();
  });
});
