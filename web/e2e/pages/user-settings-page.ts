import { expect, type Page } from '@playwright/test';

/** /settings/user-settings: profile, the AskNeedl Pro switch, sign-out and erasing the account. */
export class UserSettingsPage {
  constructor(private readonly page: Page) {}

  readonly askNeedlPro = () => this.page.getByRole('switch', { name: 'AskNeedl Pro' });
  readonly username = () => this.page.getByTestId('profile-username');
  readonly email = () => this.page.getByTestId('profile-email');
  readonly eraseSection = () => this.page.getByRole('region', { name: 'Erase account' });
  readonly eraseDialog = () => this.page.getByRole('dialog', { name: 'Erase your account?' });
  /** The password field of the erase dialog (the password section has a field of the same name). */
  readonly erasePassword = () => this.eraseDialog().getByLabel('Current password', { exact: true });

  async open() {
    await this.page.goto('/settings/user-settings');
    await expect(this.page.getByRole('heading', { name: 'User Settings', level: 1 })).toBeVisible();
  }

  async expectAskNeedlPro(on: boolean, timeout = 5_000) {
    await expect(this.askNeedlPro()).toHaveAttribute('aria-checked', String(on), { timeout });
  }

  /** Flips the switch and waits until the server has saved it. */
  async toggleAskNeedlPro() {
    await expect(this.askNeedlPro()).toBeEnabled();
    const saved = this.page.waitForResponse(
      (r) => r.url().endsWith('/api/user/preferences') && r.request().method() === 'PATCH' && r.ok(),
    );
    await this.askNeedlPro().click();
    await saved;
  }

  async signOut() {
    await this.page.getByRole('button', { name: 'Sign out' }).click();
  }

  /** Opens the dialog that erases the account, from its section at the end of the page. */
  async openEraseAccount() {
    await this.eraseSection().getByRole('button', { name: 'Erase account…' }).click();
    await expect(this.eraseDialog()).toBeVisible();
    return this.eraseDialog();
  }

  /** In the open dialog: types `password` and confirms. */
  async confirmEraseAccount(password: string) {
    await this.erasePassword().fill(password);
    await this.eraseDialog().getByRole('button', { name: 'Erase my account' }).click();
  }

  /** The error under the erase dialog's password field, found through its aria-describedby. */
  async erasePasswordError() {
    await expect(this.erasePassword()).toHaveAttribute('aria-invalid', 'true');
    const id = await this.erasePassword().getAttribute('aria-describedby');
    return this.page.locator(`[id="${id}"]`);
  }
}
