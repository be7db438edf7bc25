import { render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { UnknownAddressProvider, useShowsSideNav, useUnknownAddress } from '../shell/unknown-address';
import { NotFoundPage } from './not-found-page';

/** What the shell reads: whether the address is unknown and whether the navigation shows. */
function ShellProbe() {
  const unknown = useUnknownAddress();
  const nav = useShowsSideNav();
  return <p data-testid="probe">{`unknown=${unknown} nav=${nav}`}</p>;
}

function Harness({ route }: { route: string }) {
  const [shown, setShown] = useState(true);
  return (
    <MemoryRouter initialEntries={[route]}>
      <UnknownAddressProvider>
        <ShellProbe />
        <button type="button" onClick={() => setShown(false)}>
          leave
        </button>
        {shown && <NotFoundPage />}
      </UnknownAddressProvider>
    </MemoryRouter>
  );
}

describe('the not-found page', () => {
  it('names the address, leads home, and tells the shell to keep the navigation', () => {
    render(<Harness route="/no/such/page" />);
    expect(screen.getByRole('heading', { name: 'There is no page at this address' })).toBeInTheDocument();
    expect(screen.getByText('/no/such/page')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(screen.queryByText(/coming soon/i)).not.toBeInTheDocument();
    expect(screen.getByTestId('probe')).toHaveTextContent('unknown=true nav=true');
  });

  it('gives the address back to the areas when the user leaves it', () => {
    render(<Harness route="/no/such/page" />);
    screen.getByRole('button', { name: 'leave' }).click();
    return expect(screen.findByText('unknown=false nav=false')).resolves.toBeInTheDocument();
  });
});

describe('pages that show the navigation', () => {
  it.each(['/settings/user-settings', '/settings/channels/create%20group', '/preview/feeds/d1', '/feeds/home'])('%s does', (route) => {
    render(
      <MemoryRouter initialEntries={[route]}>
        <UnknownAddressProvider>
          <ShellProbe />
        </UnknownAddressProvider>
      </MemoryRouter>,
    );
    expect(screen.getByTestId('probe')).toHaveTextContent('unknown=false nav=true');
  });
});
