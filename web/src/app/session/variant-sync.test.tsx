import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { sessionStore } from '../../lib/session-store';
import { VariantSync } from './variant-sync';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

const renderAt = (route: string) =>
  render(
    <MemoryRouter initialEntries={[route]}>
      <VariantSync />
    </MemoryRouter>,
  );

describe('the variant kept in local storage', () => {
  afterEach(() => sessionStore.signOut());

  it('is noted on a pulse page', () => {
    sessionStore.forget();
    renderAt('/pulse/auth/signin');
    expect(localStorage.getItem('appType')).toBe('pulse');
  });

  it('is forgotten once a signed-in user is in the default app', () => {
    sessionStore.signIn('tok', user);
    localStorage.setItem('appType', 'pulse');
    renderAt('/feeds/home');
    expect(localStorage.getItem('appType')).toBeNull();
  });
});
