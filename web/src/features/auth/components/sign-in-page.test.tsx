import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../../../lib/session-store';
import { leaveSignInNotice, readSignInNotice } from '../../../lib/sign-in-notice';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { SignInPage } from './sign-in-page';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

describe('sign-in page', () => {
  afterEach(() => sessionStore.signOut());

  it('asks for the missing fields before calling the server', async () => {
    const calls = stubApi({});
    renderWithProviders(<SignInPage />, { route: '/auth/signin' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Email is a required field')).toBeInTheDocument();
    expect(screen.getByText('Password is a required field')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
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
    expect(calls[0].body).toEqual({ email: 'ann@example.com', password: 'correct-horse' });
    expect(JSON.parse(localStorage.getItem('needl.session') ?? '{}').token).toBe('tok-1');
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
});
