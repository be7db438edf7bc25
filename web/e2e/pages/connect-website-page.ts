import { expect, type Page } from '@playwright/test';

/** /connect/website and /connect/website/followed: following a site and the followed list. */
export class ConnectWebsitePage {
  constructor(private readonly page: Page) {}

  readonly urlField = () => this.page.getByLabel('Website URL');
  readonly form = () => this.page.getByRole('form', { name: 'Follow website' });
  readonly confirmation = () => this.form().getByRole('status');
  readonly formError = () => this.form().getByRole('alert');
  readonly followed = () => this.page.getByRole('list', { name: 'Followed websites' });
  readonly row = (text: string) => this.followed().getByTestId('website').filter({ hasText: text });

  async open() {
    await this.page.goto('/connect/website');
    await expect(this.urlField()).toBeVisible();
  }

  async follow(url: string) {
    await this.urlField().fill(url);
    await this.page.getByRole('button', { name: 'Follow', exact: true }).click();
  }

  async openFollowed() {
    await this.page.goto('/connect/website/followed');
    await expect(this.page.getByRole('heading', { name: 'Followed websites', level: 2 })).toBeVisible();
  }
}
