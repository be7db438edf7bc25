import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { sessionStore } from '../../lib/session-store';
import { RequireAuth } from './require-auth';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

const renderAt = (route: string) =>
  render(
    <MemoryRouter initialEntries={[route]}>
      <Routes>
        <Route element={<RequireAuth />}>
          <Route path="*" element={<p>protected page</p>} />
        </Route>
        <Route path="/auth/signin" element={<p>sign-in page</p>} />
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
