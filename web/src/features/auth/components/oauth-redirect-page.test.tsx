import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { sessionStore } from '../../../lib/session-store';
import { json, stubApi } from '../../../test/render';
import { OAuthRedirectPage } from './oauth-redirect-page';

const user = { id: 'u1', email_id: 'alice@example.com', username: 'Alice Analyst', is_admin: false };

/** Shows the address the router is at, for the pages the handoff goes on to. */
function Address() {
  const { pathname, search, hash } = useLocation();
  return <p data-testid="address">{`${pathname}${search}${hash}`}</p>;
}

function renderAt(route: string) {
  return render(
    <MemoryRouter initialEntries={[route]}>
      <Routes>
        <Route path="/oauth/redirect" element={<OAuthRedirectPage />} />
        <Route path="/auth/signin" element={<p>sign-in page</p>} />
        <Route path="*" element={<p>arrived</p>} />
      </Routes>
      <Address />
    </MemoryRouter>,
  );
}

const address = () => screen.getByTestId('address').textContent;

describe('the organisation sign-in handoff page', () => {
  afterEach(() => sessionStore.signOut());

  it('takes the token out of the address, signs in with it and goes on to the page asked for', async () => {
    localStorage.setItem('oauth-signin', 'true');
    let release: (response: Response) => void = () => {};
    const sent: Array<string | undefined> = [];
    stubApi({
      'POST /api/auth/refresh': (init) => {
        sent.push((init.headers as Record<string, string>).token);
        return new Promise<Response>((resolve) => {
          release = resolve;
        });
      },
    });
    renderAt('/oauth/redirect#token=tok-1&expires_at=2030-01-01T00%3A00%3A00Z&redirect=%2Fnotebooks%3Fid%3D7');

    expect(screen.getByRole('status', { name: 'Signing you in' })).toBeInTheDocument();
    expect(address()).toBe('/oauth/redirect');
    await vi.waitFor(() => expect(sent).toEqual(['tok-1']));

    release(json(200, { token: 'tok-2', user }));
    expect(await screen.findByText('arrived')).toBeInTheDocument();
    expect(address()).toBe('/notebooks?id=7');
    expect(sessionStore.get()).toMatchObject({ token: 'tok-2', user });
    expect(localStorage.getItem('oauth-signin')).toBeNull();
  });

  it('goes home rather than to another site', async () => {
    stubApi({ 'POST /api/auth/refresh': () => json(200, { token: 'tok-2', user }) });
    renderAt('/oauth/redirect#token=tok-1&redirect=%2F%2Fevil.example%2F');
    expect(await screen.findByText('arrived')).toBeInTheDocument();
    expect(address()).toBe('/');
  });

  it('says a link without a token is incomplete, and leads back to sign-in', () => {
    const calls = stubApi({});
    renderAt('/oauth/redirect#redirect=%2Fnotebooks');
    expect(screen.getByRole('heading', { name: 'This sign-in link is incomplete' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign-in' })).toHaveAttribute('href', '/auth/signin');
    expect(address()).toBe('/oauth/redirect');
    expect(calls).toHaveLength(0);
  });

  it('says the sign-in has ended when the server no longer takes the token', async () => {
    stubApi({ 'POST /api/auth/refresh': () => json(401, { code: 'unauthorized', message: 'sign in again' }) });
    renderAt('/oauth/redirect#token=used&redirect=%2F');
    expect(await screen.findByRole('heading', { name: 'This sign-in has ended' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign-in' })).toBeInTheDocument();
    expect(sessionStore.get().token).toBeNull();
  });

  it('asks to try again when the server cannot be reached', async () => {
    stubApi({ 'POST /api/auth/refresh': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderAt('/oauth/redirect#token=tok-1&redirect=%2F');
    expect(await screen.findByRole('heading', { name: "We couldn't finish signing you in" })).toBeInTheDocument();
    expect(sessionStore.get().token).toBeNull();
  });
});
