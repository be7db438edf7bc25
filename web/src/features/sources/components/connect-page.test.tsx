import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render';
import { ConnectPage } from './connect-page';

describe('ConnectPage', () => {
  it("offers following a US company's SEC filings beside the public sources", () => {
    renderWithProviders(<ConnectPage />, { route: '/connect' });
    const ways = screen.getByRole('list', { name: 'Ways to connect' });
    const publicSources = within(ways).getByRole('heading', { name: 'Public sources' }).closest('li') as HTMLElement;
    expect(within(publicSources).getByRole('link', { name: "Follow a US company's SEC filings" })).toHaveAttribute(
      'href',
      '/connect/edgar',
    );
  });
});
