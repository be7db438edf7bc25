import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { sessionStore } from '../../lib/session-store';
import { renderWithProviders, stubApi } from '../../test/render';
import { PulseIndex } from './pulse-index';
import { PulseLayout } from './pulse-layout';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

const render = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/pulse" element={<PulseIndex />} />
      <Route element={<PulseLayout />}>
        <Route path="/pulse/settings/user-settings" element={<h1>the profile</h1>} />
        <Route path="/pulse/update-portfolio" element={<h1>the portfolio</h1>} />
      </Route>
      <Route path="/pulse/auth/signin" element={<p>the pulse sign-in</p>} />
    </Routes>,
    { route },
  );

describe('the pulse layout', () => {
  afterEach(() => sessionStore.signOut());

  it("shows the product's name, the user's name, Sign out and the way between profile and portfolio", async () => {
    sessionStore.signIn('tok', user);
    stubApi({});
    render('/pulse/settings/user-settings');
    const header = screen.getByRole('banner');
    expect(header).toHaveTextContent('Needl Pulse');
    expect(screen.getByTestId('pulse-user')).toHaveTextContent('ann');
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByRole('link', { name: 'Portfolio' }));
    expect(screen.getByRole('heading', { name: 'the portfolio' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('heading', { name: 'the portfolio' }));
  });

  it('signs out to the pulse sign-in page', async () => {
    sessionStore.signIn('tok', user);
    const calls = stubApi({ 'POST /api/auth/signout': () => new Response(null, { status: 204 }) });
    render('/pulse/settings/user-settings');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('the pulse sign-in')).toBeInTheDocument();
    expect(sessionStore.get().token).toBeNull();
    expect(calls.map((c) => c.key)).toContain('POST /api/auth/signout');
  });
});

describe('/pulse', () => {
  afterEach(() => sessionStore.signOut());

  it('goes to the profile page when signed in', () => {
    sessionStore.signIn('tok', user);
    render('/pulse');
    expect(screen.getByRole('heading', { name: 'the profile' })).toBeInTheDocument();
  });

  it('goes to the pulse sign-in when signed out', () => {
    sessionStore.forget();
    render('/pulse');
    expect(screen.getByText('the pulse sign-in')).toBeInTheDocument();
  });
});

