import { expect, type Page } from '@playwright/test';

/** My Data (/feeds/home) with its tabs, and per-source feeds: the document cards. */
export class FeedsPage {
  constructor(private readonly page: Page) {}

  readonly tabs = () => this.page.getByRole('navigation', { name: 'My Data sources' });
  /** One of My Data's tabs, by its sub-category key (`rss_news`, `drives`, ...). */
  readonly tab = (key: string) => this.tabs().locator(`[data-testid="my-data-tab"][data-key="${key}"]`);
  readonly emptyMyData = () => this.page.getByRole('heading', { name: 'Nothing in My Data yet' });
  /** The feeds that cannot be fetched, above the items of the Website & RSS tab. */
  readonly feedProblems = () => this.page.getByRole('region', { name: /cannot be fetched$/ });

  async expectTab(key: string, { connected, count }: { connected: boolean; count?: number }, timeout = 5_000) {
    await expect(this.tab(key)).toHaveAttribute('data-connected', String(connected), { timeout });
    // The Notes tab counts notes; every other tab documents.
    if (count !== undefined) await expect(this.tab(key)).toContainText(`${count} ${key === 'notes' ? 'note' : 'document'}`, { timeout });
  }

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
