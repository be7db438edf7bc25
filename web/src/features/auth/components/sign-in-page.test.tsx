import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { sessionStore } from '../../../lib/session-store';
import { leaveSignInNotice, readSignInNotice } from '../../../lib/sign-in-notice';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { SignInPage } from './sign-in-page';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

/** Shows the address the router is at. */
function Address() {
  const { pathname, search } = useLocation();
  return <p data-testid="address">{`${pathname}${search}`}</p>;
}

describe('sign-in page', () => {
  afterEach(() => sessionStore.signOut());

  it('asks for the missing fields before calling the server', async () => {
    const calls = stubApi({});
    renderWithProviders(<SignInPage />, { route: '/auth/signin' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Email is a required field')).toBeInTheDocument();
    expect(screen.getByText('Password is a required field')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.key.startsWith('POST'))).toHaveLength(0);
  });

  it('rejects an address that is not an email', async () => {
    stubApi({});
    renderWithProviders(<SignInPage />, { route: '/auth/signin' });
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Email must be a valid email')).toBeInTheDocument();
  });

  it("shows the server's message for wrong credentials", async () => {
    stubApi({ 'POST /api/auth/signin': () => json(401, { code: 'unauthorized', message: 'invalid email or password' }) });
    renderWithProviders(<SignInPage />, { route: '/auth/signin' });
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('invalid email or password');
    expect(sessionStore.get().token).toBeNull();
  });

  it('stores the token and goes home after signing in', async () => {
    const calls = stubApi({ 'POST /api/auth/signin': () => json(200, { token: 'tok-1', user }) });
    renderWithProviders(<SignInPage />, { route: '/auth/signin' });
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct-horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('at home')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/auth/signin')?.body).toEqual({
      email: 'ann@example.com',
      password: 'correct-horse',
    });
    expect(JSON.parse(localStorage.getItem('needl.session') ?? '{}').token).toBe('tok-1');
  });

  it('on the pulse sign-in, goes to the pulse profile page after signing in', async () => {
    stubApi({ 'POST /api/auth/signin': () => json(200, { token: 'tok-1', user }) });
    renderWithProviders(
      <>
        <SignInPage />
        <Address />
      </>,
      { route: '/pulse/auth/signin' },
    );
    expect(screen.getByText('Sign in to Needl Pulse.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct-horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/pulse\/settings\/user-settings$/));
  });

  it('says the account was erased when the page that erased it left that notice, once', async () => {
    stubApi({});
    leaveSignInNotice('account_erased');
    const { unmount } = renderWithProviders(<SignInPage />, { route: '/auth/signin' });
    expect(screen.getByRole('status')).toHaveTextContent('Your account was erased');
    expect(readSignInNotice()).toBeNull();
    unmount();
    renderWithProviders(<SignInPage />, { route: '/auth/signin' });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  describe("with the organisation's identity provider", () => {
    const enabled = { 'GET /api/auth/oidc/config': () => json(200, { enabled: true, label: 'Example Corp' }) };

    it('offers it beside the email form', async () => {
      stubApi(enabled);
      renderWithProviders(<SignInPage />, { route: '/auth/signin' });
      expect(await screen.findByRole('button', { name: 'Sign in with Example Corp' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Sign in' })).toHaveAttribute('type', 'submit');
    });

    it.each([
      ['oidc_domain_not_allowed', "Your organisation's sign-in isn't set up for this email address. Ask your administrator."],
      ['oidc_email_unverified', "Your identity provider hasn't verified your email address."],
      ['oidc_state_mismatch', "That sign-in didn't complete. Please try again."],
      ['oidc_sign_in_expired', "That sign-in didn't complete. Please try again."],
      ['oidc_provider_unavailable', "We couldn't reach your organisation's sign-in. Try again in a moment."],
      ['something_new', "That sign-in didn't complete. Please try again."],
    ])('says what went wrong for %s, and takes the code out of the address', async (code, text) => {
      stubApi(enabled);
      renderWithProviders(
        <>
          <SignInPage />
          <Address />
        </>,
        { route: `/auth/signin?sso_error=${code}&keep=1` },
      );
      expect(screen.getByRole('alert')).toHaveTextContent(text);
      await vi.waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/auth\/signin\?keep=1$/));
      expect(screen.getByRole('alert')).toHaveTextContent(text);
    });

    it('says nothing without a code', () => {
      stubApi(enabled);
      renderWithProviders(<SignInPage />, { route: '/auth/signin' });
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });
});
