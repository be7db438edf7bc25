import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../../../lib/session-store';
import { readSignInNotice } from '../../../lib/sign-in-notice';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { EraseAccountSection } from './erase-account-section';

const user = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: false };

const render = () => renderWithProviders(<EraseAccountSection />, { route: '/settings/user-settings' });

const openDialog = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Erase account…' }));
  return screen.getByRole('dialog', { name: 'Erase your account?' });
};

const erase = async (password: string) => {
  const dialog = await openDialog();
  if (password) await userEvent.type(within(dialog).getByLabelText('Current password'), password);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Erase my account' }));
  return dialog;
};

const describedText = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : null;
};

describe('erase account section', () => {
  beforeEach(() => sessionStore.signIn('tok-1', user));
  afterEach(() => sessionStore.signOut());

  it('says what erasing does, and its dialog takes focus to the password; Escape and Cancel close it', async () => {
    stubApi({});
    render();
    expect(screen.getByRole('heading', { name: 'Erase account' })).toBeInTheDocument();
    expect(screen.getByText(/name, email, password and the texts of your comments for good/)).toBeInTheDocument();
    expect(screen.getByText(/marked as removed\. This cannot be undone\./)).toBeInTheDocument();

    const dialog = await openDialog();
    expect(within(dialog).getByLabelText('Current password')).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Erase account…' })).toHaveFocus();

    await openDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks for the password before calling the server', async () => {
    const calls = stubApi({});
    render();
    await erase('');
    expect(describedText('Current password')).toBe('Type your current password to erase your account');
    expect(screen.getByLabelText('Current password')).toHaveFocus();
    expect(calls).toHaveLength(0);
  });

  it('puts a wrong password under the field and keeps the session', async () => {
    stubApi({
      'DELETE /api/user': () => json(422, { code: 'wrong_password', message: 'the current password is not right' }),
    });
    render();
    await erase('not-my-password');
    await screen.findByText('the current password is not right');
    expect(describedText('Current password')).toBe('the current password is not right');
    expect(screen.getByLabelText('Current password')).toHaveFocus();
    expect(sessionStore.get().token).toBe('tok-1');
  });

  it("shows why the only administrator cannot erase their account, in the dialog and not as a toast", async () => {
    const message = 'you are the only administrator: make someone else an administrator before erasing your account';
    stubApi({ 'DELETE /api/user': () => json(422, { code: 'last_admin', message }) });
    render();
    const dialog = await erase('correct-horse');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(within(dialog).getByRole('button', { name: 'Erase my account' })).toBeEnabled();
    expect(sessionStore.get().token).toBe('tok-1');
  });

  it('says a failure the server gave no words for in words of its own', async () => {
    stubApi({ 'DELETE /api/user': () => json(500, { code: 'internal', message: 'internal error' }) });
    render();
    const dialog = await erase('correct-horse');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Your account could not be erased just now. Try again in a moment.',
    );
  });

  it('erases with the password, cannot be closed meanwhile, then signs out here and leaves sign-in a notice', async () => {
    let answer: (response: Response) => void = () => {};
    const calls = stubApi({ 'DELETE /api/user': () => new Promise<Response>((resolve) => (answer = resolve)) });
    render();
    const dialog = await erase('correct-horse');

    expect(within(dialog).getByRole('button', { name: 'Erasing…' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    answer(new Response(null, { status: 204 }));
    expect(await screen.findByText('at home')).toBeInTheDocument();
    expect(calls).toEqual([{ key: 'DELETE /api/user', body: { password: 'correct-horse' } }]);
    expect(sessionStore.get()).toMatchObject({ token: null, signedOut: true });
    expect(readSignInNotice()).toBe('account_erased');
  });
});
