import { expect, type Page } from '@playwright/test';

/** /settings/user-settings: profile, the AskNeedl Pro switch and sign-out. */
export class UserSettingsPage {
  constructor(private readonly page: Page) {}

  readonly askNeedlPro = () => this.page.getByRole('switch', { name: 'AskNeedl Pro' });
  readonly username = () => this.page.getByTestId('profile-username');
  readonly email = () => this.page.getByTestId('profile-email');

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
}
