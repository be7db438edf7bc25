import { expect, type Page } from '@playwright/test';

/** /preview/{category}/{deeplink}: one document in full. */
export class PreviewPage {
  constructor(private readonly page: Page) {}

  readonly document = () => this.page.locator('article.preview');
  readonly title = () => this.page.locator('#preview-title');
  readonly readToggle = () => this.document().getByRole('button', { name: /^Read/ });
  readonly pdfPages = () => this.page.getByTestId('pdf-page');
  readonly highlight = () => this.page.getByTestId('pdf-highlight');
  readonly shareButton = () => this.document().getByRole('button', { name: /^Share/ });
  readonly notFound = () => this.page.getByRole('heading', { name: 'This document cannot be found' });

  /**
   * Shares the document and returns the link the app copied (the browser context must allow
   * clipboard reads).
   */
  async share(): Promise<string> {
    await this.shareButton().click();
    await expect(this.page.getByRole('status').filter({ hasText: 'Link copied to clipboard' })).toBeVisible();
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  async expectShowing(title: string | RegExp, category = 'feeds') {
    await expect(this.page).toHaveURL(new RegExp(`/preview/${category}/`));
    await expect(this.title()).toHaveText(title);
  }

  /** Waits until pdf.js has drawn the first page of an uploaded PDF. */
  async expectPdfDrawn(timeout = 15_000) {
    await expect(this.pdfPages().first()).toHaveAttribute('data-state', 'drawn', { timeout });
  }

  /** Presses the read toggle and waits until the server has saved it. */
  async toggleRead() {
    const saved = this.page.waitForResponse(
      (r) => r.url().includes('/api/doc/read_status/') && r.request().method() === 'PUT' && r.ok(),
    );
    await this.readToggle().click();
    await saved;
  }

  async expectRead(read: boolean) {
    await expect(this.readToggle()).toHaveAttribute('aria-pressed', String(read));
  }
}
