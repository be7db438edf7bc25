import { expect, type Page } from '@playwright/test';

/** What the mail form asks for. */
export interface MailAccountDetails {
  host: string;
  port: number;
  username: string;
  password: string;
}

/**
 * /connect/app/email: the mail account form (check the account, then tick folders and connect),
 * and once connected, the mailbox's summary with Sync now and Disconnect.
 */
export class ConnectMailPage {
  constructor(private readonly page: Page) {}

  readonly form = () => this.page.getByRole('form', { name: 'Mail account' });
  readonly formHeading = () => this.page.getByRole('heading', { name: 'Connect a mailbox' });
  readonly formError = () => this.form().getByRole('alert');
  readonly checkButton = () => this.form().getByRole('button', { name: 'Check and list folders' });
  readonly connectButton = () => this.form().getByRole('button', { name: 'Connect', exact: true });
  readonly folders = () => this.form().getByRole('group', { name: 'Folders to read' });
  readonly folder = (name: string) => this.folders().getByRole('checkbox', { name, exact: true });
  readonly summary = () => this.page.getByRole('region', { name: 'Your mailbox' });
  /** One fact of the connected mailbox ("Folders", "Documents imported", "Last synced"). */
  readonly fact = (term: string) =>
    this.summary().locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
  readonly syncButton = () => this.summary().getByRole('button', { name: 'Sync now' });
  readonly disconnectButton = () => this.summary().getByRole('button', { name: 'Disconnect' });
  readonly disconnectDialog = () => this.page.getByRole('dialog', { name: 'Disconnect your mailbox?' });

  async open() {
    await this.page.goto('/connect/app/email');
    await expect(this.page.getByRole('heading', { name: 'Email (IMAP)', level: 2 })).toBeVisible();
  }

  /** Fills the form for a mail server reached over plain IMAP (local servers only). */
  async fillPlain({ host, port, username, password }: MailAccountDetails) {
    await this.form().getByLabel('Server', { exact: true }).fill(host);
    await this.form().getByRole('radio', { name: 'Plain, unencrypted (local servers only)' }).check();
    await this.form().getByLabel('Port (optional)').fill(String(port));
    await this.form().getByLabel('Account name').fill(username);
    await this.form().getByLabel('Password', { exact: true }).fill(password);
  }

  /** Opens the disconnect dialog, confirms, and waits until the form is back. */
  async disconnect() {
    await this.disconnectButton().click();
    await this.disconnectDialog().getByRole('button', { name: 'Disconnect' }).click();
    await expect(this.disconnectDialog()).toHaveCount(0);
    await expect(this.formHeading()).toBeVisible();
  }
}
