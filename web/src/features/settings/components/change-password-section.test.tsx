import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { ChangePasswordSection } from './change-password-section';

const fill = async (current: string, next: string, repeat = next) => {
  await userEvent.type(screen.getByLabelText('Current password'), current);
  await userEvent.type(screen.getByLabelText('New password'), next);
  await userEvent.type(screen.getByLabelText('Repeat the new password'), repeat);
  await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
};

const describedText = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : null;
};

describe('change password section', () => {
  it('puts a wrong current password under the current field', async () => {
    stubApi({
      'POST /api/auth/password': () => json(422, { code: 'wrong_password', message: 'the current password is not right' }),
    });
    renderWithProviders(<ChangePasswordSection />, { route: '/settings/user-settings' });
    await fill('nope-nope', 'amber walrus paints 12 harbours');
    await screen.findByText('the current password is not right');
    expect(describedText('Current password')).toBe('the current password is not right');
  });

  it("puts the policy's reason under the new password", async () => {
    const message = 'password is too easy to guess: this is similar to a commonly used password';
    stubApi({ 'POST /api/auth/password': () => json(422, { code: 'weak_password', message }) });
    renderWithProviders(<ChangePasswordSection />, { route: '/settings/user-settings' });
    await fill('old-password-1', 'password12');
    await screen.findByText(message);
    expect(describedText('New password')).toBe(message);
  });

  it('checks the entries before calling the server, then says other sessions ended', async () => {
    const calls = stubApi({ 'POST /api/auth/password': () => new Response(null, { status: 204 }) });
    renderWithProviders(<ChangePasswordSection />, { route: '/settings/user-settings' });
    await fill('old-password-1', 'short');
    expect(describedText('New password')).toBe('Password must be at least 8 characters');
    expect(calls).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.clear(screen.getByLabelText('Repeat the new password'));
    await userEvent.clear(screen.getByLabelText('Current password'));
    await fill('old-password-1', 'amber walrus paints 12 harbours');
    expect(await screen.findByRole('status')).toHaveTextContent('Your other sessions were signed out');
    expect(calls[0].body).toEqual({ current_password: 'old-password-1', new_password: 'amber walrus paints 12 harbours' });
  });
});
