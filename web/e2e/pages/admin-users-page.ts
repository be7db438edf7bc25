import { expect, type Page } from '@playwright/test';

/** /settings/users, for administrators: the instance's users, with Erase for all but oneself. */
export class AdminUsersPage {
  constructor(private readonly page: Page) {}

  readonly list = () => this.page.getByRole('list', { name: 'Users', exact: true });
  readonly row = (username: string) => this.list().getByRole('listitem', { name: username, exact: true });
  readonly eraseButton = (username: string) => this.row(username).getByRole('button', { name: `Erase ${username}`, exact: true });
  readonly eraseDialog = (username: string) => this.page.getByRole('dialog', { name: `Erase ${username}'s account?` });

  async open() {
    await this.page.goto('/settings/users');
    await expect(this.list()).toBeVisible();
  }

  /** Erases `username` through the row's Erase and its dialog; waits until the server has. */
  async erase(username: string) {
    await this.eraseButton(username).click();
    const dialog = this.eraseDialog(username);
    await expect(dialog).toContainText('This cannot be undone.');
    const erased = this.page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith('/api/admin/users/'),
    );
    await dialog.getByRole('button', { name: 'Erase account' }).click();
    expect((await erased).status()).toBe(204);
    await expect(dialog).toBeHidden();
  }
}
