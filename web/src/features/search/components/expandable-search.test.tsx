import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { renderWithProviders } from '../../../test/render';
import { ExpandableSearch } from './expandable-search';
import { HeaderSearch } from './header-search';

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

const renderBox = (onSubmit = vi.fn()) => {
  renderWithProviders(
    <>
      <ExpandableSearch label="Search My Data" onSubmit={onSubmit} />
      <button type="button">elsewhere</button>
    </>,
    { route: '/settings' },
  );
  return onSubmit;
};

describe('ExpandableSearch', () => {
  it('is an icon button until pressed, then an input with the caret in it; Enter searches', async () => {
    const onSubmit = renderBox();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Search My Data' }));
    const input = screen.getByRole('searchbox', { name: 'Search My Data' });
    expect(input).toHaveFocus();
    await userEvent.type(input, ' tariffs {Enter}');
    expect(onSubmit).toHaveBeenCalledWith('tariffs');
  });

  it('does not search for nothing', async () => {
    const onSubmit = renderBox();
    await userEvent.click(screen.getByRole('button', { name: 'Search My Data' }));
    await userEvent.keyboard('{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('collapses on blur when empty, and stays open with text in it', async () => {
    renderBox();
    await userEvent.click(screen.getByRole('button', { name: 'Search My Data' }));
    await userEvent.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Search My Data' }));
    await userEvent.type(screen.getByRole('searchbox'), 'steel');
    await userEvent.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(screen.getByRole('searchbox')).toHaveValue('steel');
  });

  it('clears and closes with the close button, and focus goes back to the icon', async () => {
    renderBox();
    await userEvent.click(screen.getByRole('button', { name: 'Search My Data' }));
    await userEvent.type(screen.getByRole('searchbox'), 'steel');
    await userEvent.click(screen.getByRole('button', { name: 'Clear and close search' }));
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search My Data' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Search My Data' }));
    expect(screen.getByRole('searchbox')).toHaveValue('');
  });

  it('closes on Escape, focus back on the icon; "/" opens it from anywhere but a field', async () => {
    renderBox();
    await userEvent.keyboard('/');
    const input = screen.getByRole('searchbox');
    expect(input).toHaveFocus();
    await userEvent.type(input, 'a/b');
    expect(input).toHaveValue('a/b');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search My Data' })).toHaveFocus();
  });
});

describe('HeaderSearch', () => {
  it('searches the feed being read, at /search/today with its board, keeping the overlay', async () => {
    renderWithProviders(
      <>
        <Where />
        <HeaderSearch />
      </>,
      { route: '/feeds/rss_1?overlay-type=ask-needl&unrelated=1' },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Search this feed' }));
    await userEvent.type(screen.getByRole('searchbox'), 'rate cut{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent('/search/today?q=rate+cut&board_id=rss_1&overlay-type=ask-needl');
  });

  it('searches all of My Data from My Data', async () => {
    renderWithProviders(
      <>
        <Where />
        <HeaderSearch />
      </>,
      { route: '/feeds/home/rss_news' },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Search My Data' }));
    await userEvent.type(screen.getByRole('searchbox'), 'tariffs{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/search\?q=tariffs$/);
  });
});
