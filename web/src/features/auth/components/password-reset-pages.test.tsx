import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../../../lib/session-store';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { ForgotPasswordPage } from './forgot-password-page';
import { ResetPasswordPage } from './reset-password-page';
import { SignUpPage } from './sign-up-page';

const TOKEN = 'a'.repeat(64);
const weak = { code: 'weak_password', message: 'password is too easy to guess: this is a top-10 common password' };

describe('forgot-password page', () => {
  it('says plainly that no mail is sent when the server has no mailer, and offers no form', async () => {
    const calls = stubApi({ 'GET /api/auth/password-reset': () => json(200, { by_mail: false, link_minutes: 60 }) });
    renderWithProviders(<ForgotPasswordPage />, { route: '/auth/forgot-password' });
    expect(await screen.findByText('This server sends no email, so no link can be mailed to you.')).toBeInTheDocument();
    expect(screen.getByText(/Ask an administrator of your workspace for a reset link/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Email me a link' })).not.toBeInTheDocument();
    expect(calls.map((c) => c.key)).toEqual(['GET /api/auth/password-reset']);
  });

  it('asks for a link by mail and says what happens without telling whether the account exists', async () => {
    const calls = stubApi({
      'GET /api/auth/password-reset': () => json(200, { by_mail: true, link_minutes: 30 }),
      'POST /api/auth/password-reset/request': () => json(202, { message: 'sent', by_mail: true }),
    });
    renderWithProviders(<ForgotPasswordPage />, { route: '/auth/forgot-password' });
    await userEvent.type(await screen.findByLabelText('Email'), 'ann@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByText(/If an account uses that address, an email with a link is on its way/)).toHaveTextContent(
      'for 30 minutes',
    );
    expect(calls[1].body).toEqual({ email: 'ann@example.com' });
  });
});

describe('reset-password page', () => {
  afterEach(() => sessionStore.signOut());

  it("shows the password policy's reason under the field, then sets the password", async () => {
    let attempts = 0;
    const calls = stubApi({
      'POST /api/auth/password-reset/complete': () => (++attempts === 1 ? json(422, weak) : new Response(null, { status: 204 })),
    });
    renderWithProviders(<ResetPasswordPage />, { route: `/reset-password?token=${TOKEN}` });
    await userEvent.type(screen.getByLabelText('New password'), 'password1');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'password1');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    const field = screen.getByLabelText('New password');
    expect(await screen.findByText(weak.message)).toHaveAttribute('id', field.getAttribute('aria-describedby'));
    await userEvent.clear(field);
    await userEvent.type(field, 'amber walrus paints 12 harbours');
    await userEvent.clear(screen.getByLabelText('Repeat the new password'));
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'amber walrus paints 12 harbours');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeInTheDocument();
    expect(calls[1].body).toEqual({ token: TOKEN, password: 'amber walrus paints 12 harbours' });
  });

  it('refuses two different entries before calling the server', async () => {
    const calls = stubApi({});
    renderWithProviders(<ResetPasswordPage />, { route: `/reset-password?token=${TOKEN}` });
    await userEvent.type(screen.getByLabelText('New password'), 'amber walrus paints 12 harbours');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'amber walrus paints 13 harbours');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByText('The two passwords differ')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('offers a new link when the link was used or expired', async () => {
    stubApi({
      'POST /api/auth/password-reset/complete': () =>
        json(422, { code: 'reset_link_invalid', message: 'this reset link has expired or has already been used; ask for a new one' }),
    });
    renderWithProviders(<ResetPasswordPage />, { route: `/reset-password?token=${TOKEN}` });
    await userEvent.type(screen.getByLabelText('New password'), 'amber walrus paints 12 harbours');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'amber walrus paints 12 harbours');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('this reset link has expired or has already been used');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/auth/forgot-password');
  });
});

describe('sign-up page', () => {
  it("shows the server's password policy reason under the password field", async () => {
    stubApi({ 'POST /api/auth/signup': () => json(422, weak) });
    renderWithProviders(<SignUpPage />, { route: '/auth/platform-access' });
    await userEvent.type(screen.getByLabelText('Username'), 'ann');
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'password1');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const field = screen.getByLabelText('Password');
    expect(await screen.findByText(weak.message)).toHaveAttribute('id', field.getAttribute('aria-describedby'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
