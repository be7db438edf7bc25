import { expect, type Page } from '@playwright/test';

/** The password pages: forgotten password, the reset page a link opens, the settings section and the users page. */
export class PasswordPages {
  constructor(private readonly page: Page) {}

  /** The error shown under a field, found through the field's aria-describedby. */
  async fieldError(label: string | RegExp) {
    const field = this.page.getByLabel(label, { exact: typeof label === 'string' });
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    const id = await field.getAttribute('aria-describedby');
    return this.page.locator(`[id="${id}"]`);
  }

  async changePassword(current: string, next: string, repeat = next) {
    const form = this.page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password', { exact: true }).fill(current);
    await form.getByLabel('New password', { exact: true }).fill(next);
    await form.getByLabel('Repeat the new password', { exact: true }).fill(repeat);
    await form.getByRole('button', { name: 'Change password' }).click();
  }

  async chooseNewPassword(password: string) {
    await this.page.getByLabel('New password', { exact: true }).fill(password);
    await this.page.getByLabel('Repeat the new password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Set new password' }).click();
  }

  /** As an administrator on /settings/users: issues a reset link for `username` and returns it. */
  async copyResetLink(username: string) {
    await this.page.goto('/settings/users');
    const row = this.page.getByRole('listitem', { name: username });
    await row.getByRole('button', { name: 'Copy reset link' }).click();
    const link = row.getByLabel(`Reset link for ${username}`);
    await expect(link).toHaveValue(/\/reset-password\?token=[0-9a-f]{64}$/);
    return link.inputValue();
  }
}
