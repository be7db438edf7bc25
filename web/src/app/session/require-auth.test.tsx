import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { sessionStore } from '../../lib/session-store';
import { PublicOnly, RequireAuth } from './require-auth';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

const renderAt = (route: string) =>
  render(
    <MemoryRouter initialEntries={[route]}>
      <Routes>
        <Route element={<RequireAuth />}>
          <Route path="*" element={<p>protected page</p>} />
        </Route>
        <Route path="/auth/signin" element={<p>sign-in page</p>} />
        <Route path="/pulse/auth/signin" element={<p>pulse sign-in page</p>} />
      </Routes>
    </MemoryRouter>,
  );

describe('protected routes', () => {
  afterEach(() => sessionStore.signOut());

  it('sends a signed-out visitor to sign-in and remembers where they were going', () => {
    sessionStore.forget();
    renderAt('/settings/user-settings?x=1');
    expect(screen.getByText('sign-in page')).toBeInTheDocument();
    expect(sessionStorage.getItem('redirectUri')).toBe('/settings/user-settings?x=1');
  });

  it('shows the page to a signed-in user', () => {
    sessionStore.signIn('tok', user);
    renderAt('/notebooks');
    expect(screen.getByText('protected page')).toBeInTheDocument();
  });

  it("prompts with 'Sign-In Required' once the session is lost", () => {
    sessionStore.signIn('tok', user);
    sessionStore.expire();
    renderAt('/notebooks');
    expect(screen.getByRole('dialog', { name: 'Sign-In Required' })).toHaveTextContent(
      "You have been logged out of your account. To sign in to the product again, please click the 'Reload' button",
    );
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});

describe('after a deliberate sign-out', () => {
  it('goes to sign-in without saving the page that was left', () => {
    sessionStore.signIn('tok', user);
    sessionStore.signOut();
    renderAt('/settings/user-settings');
    expect(screen.getByText('sign-in page')).toBeInTheDocument();
    expect(sessionStorage.getItem('redirectUri')).toBeNull();
  });
});

describe('the pulse variant', () => {
  afterEach(() => sessionStore.signOut());

  it('sends a signed-out visitor at a pulse address to the pulse sign-in, even on a first visit', () => {
    sessionStore.forget();
    renderAt('/pulse/update-portfolio');
    expect(screen.getByText('pulse sign-in page')).toBeInTheDocument();
    expect(sessionStorage.getItem('redirectUri')).toBe('/pulse/update-portfolio');
  });

  it('sends a signed-out pulse user at a default address to the pulse sign-in once, as appType says', () => {
    sessionStore.forget();
    localStorage.setItem('appType', 'pulse');
    renderAt('/notebooks');
    expect(screen.getByText('pulse sign-in page')).toBeInTheDocument();
    expect(localStorage.getItem('appType')).toBeNull();
  });

  it('keeps a signed-in user off the pulse sign-in: they go to the pulse profile page', () => {
    sessionStore.signIn('tok', user);
    render(
      <MemoryRouter initialEntries={['/pulse/auth/signin']}>
        <Routes>
          <Route element={<PublicOnly />}>
            <Route path="/pulse/auth/signin" element={<p>pulse sign-in page</p>} />
            <Route path="/auth/signin" element={<p>sign-in page</p>} />
          </Route>
          <Route path="/pulse/settings/user-settings" element={<p>pulse profile</p>} />
          <Route path="/" element={<p>home</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByText('pulse profile')).toBeInTheDocument();
  });
});
