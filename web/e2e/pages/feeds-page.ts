import { expect, type Page } from '@playwright/test';

/** My Data (/feeds/home) and per-source feeds: the document cards. */
export class FeedsPage {
  constructor(private readonly page: Page) {}

  readonly cards = () => this.page.getByTestId('document-card');
  readonly card = (title: string) => this.page.getByRole('article', { name: title });
  readonly readToggle = (title: string) => this.card(title).getByRole('button', { name: /^Read/ });

  async open(path = '/feeds/home') {
    await this.page.goto(path);
    await expect(this.page.getByRole('heading', { level: 1 })).toBeVisible();
  }

  async expectDocument(title: string, timeout = 5_000) {
    await expect(this.card(title)).toBeVisible({ timeout });
  }

  async expectRead(title: string, read: boolean, timeout = 5_000) {
    await expect(this.card(title)).toHaveAttribute('data-read', String(read), { timeout });
    await expect(this.readToggle(title)).toHaveAttribute('aria-pressed', String(read), { timeout });
  }

  async openPreview(title: string) {
    await this.card(title).getByRole('link', { name: title }).click();
  }
}
