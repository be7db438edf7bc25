import { screen } from '@testing-library/react';
import { renderWithProviders, stubApi } from '../../../../test/render';
import { SettingsNotFoundPage } from './settings-not-found-page';

describe('the settings not-found page', () => {
  it('names the address among the settings tabs and leads back to User Settings', () => {
    stubApi({});
    renderWithProviders(<SettingsNotFoundPage />, { route: '/settings/no-such-page' });
    expect(screen.getByRole('navigation', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'There is no settings page at this address' })).toBeInTheDocument();
    expect(screen.getByText('/settings/no-such-page')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to User Settings' })).toHaveAttribute('href', '/settings/user-settings');
  });
});
