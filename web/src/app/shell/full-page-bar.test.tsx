import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Route, Routes } from 'react-router';
import { renderWithProviders, stubApi } from '../../test/render';
import { FullPageBar } from './full-page-bar';

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/image" element={<FullPageBar />} />
      <Route path="/search/full" element={<FullPageBar />} />
      <Route path="/feeds/home" element={<Link to="/image">an image</Link>} />
    </Routes>,
    { route },
  );

describe('the full-page bar', () => {
  it('titles the page and goes to the root when the page was opened directly', async () => {
    stubApi({});
    renderAt('/image?src=/a.png');
    expect(screen.getByRole('heading', { level: 1, name: 'Image' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('at home')).toBeInTheDocument();
  });

  it('goes back where the reader came from', async () => {
    stubApi({});
    renderAt('/feeds/home');
    await userEvent.click(screen.getByRole('link', { name: 'an image' }));
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('link', { name: 'an image' })).toBeInTheDocument();
  });

  it('titles the full-page search with its query', () => {
    stubApi({});
    renderAt('/search/full');
    expect(screen.getByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
  });
});
