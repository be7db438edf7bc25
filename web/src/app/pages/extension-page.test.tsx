import { cleanup, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { sessionStore } from '../../lib/session-store';
import { renderWithProviders } from '../../test/render';
import { ExtensionPage } from './extension-page';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

function Where() {
  const { pathname, search } = useLocation();
  return <p>at {`${pathname}${search}`}</p>;
}

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/extension" element={<ExtensionPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route },
  );

describe('/extension', () => {
  beforeEach(() => sessionStore.signIn('tok', user));
  afterEach(() => {
    cleanup();
    sessionStore.signOut();
  });

  it('says the user is signed in and may close the tab', () => {
    renderAt('/extension');
    expect(screen.getByRole('heading', { name: 'You’re signed in' })).toBeInTheDocument();
    expect(screen.getByText(/Signed in to Needl as ann@example\.com\..*you can close this tab/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Needl' })).toHaveAttribute('href', '/home');
  });

  it('goes on to the app page `redirect` names', () => {
    renderAt(`/extension?redirect=${encodeURIComponent('/search/full?q=rates')}`);
    expect(screen.getByText('at /search/full?q=rates')).toBeInTheDocument();
  });

  it('never goes on to another site', () => {
    renderAt(`/extension?redirect=${encodeURIComponent('https://evil.example/')}`);
    expect(screen.getByRole('heading', { name: 'You’re signed in' })).toBeInTheDocument();
  });
});
