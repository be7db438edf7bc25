import { expect, type Page } from '@playwright/test';
import { OverlayPanel } from './overlay';

/**
 * Custom feeds: the builder in its overlay (or at /custom-feed), a feed's page, and the feed
 * manager at /settings/feeds.
 */
export class CustomFeedPages {
  constructor(private readonly page: Page) {}

  readonly builder = () => new OverlayPanel(this.page, 'Custom feed').panel();
  readonly newFeedEntry = () => this.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: '+ New feed' });
  readonly navFeed = (name: string) => this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  readonly nameField = () => this.builder().getByRole('textbox', { name: 'Feed name' });
  readonly keywordField = () => this.builder().getByRole('textbox', { name: /^Keyword to (include|exclude)$/ });
  readonly included = () => this.builder().getByRole('list', { name: 'Included keywords' });
  readonly previewCount = () => this.builder().getByTestId('preview-count');
  readonly cards = () => this.page.getByTestId('document-card');
  readonly card = (title: string) => this.page.getByRole('article', { name: title });
  readonly settingsRow = (name: string) => this.page.getByTestId('feed-settings-row').filter({ has: this.page.getByRole('link', { name, exact: true }) });
  readonly enabledSwitch = (name: string) => this.page.getByRole('switch', { name: `${name} enabled` });

  /** Opens the builder from the side navigation's New feed entry, on the feed type page. */
  async openFromNav() {
    await this.newFeedEntry().click();
    await expect(this.builder()).toBeVisible();
    await expect(this.builder().getByRole('heading', { name: 'New feed' })).toBeVisible();
  }

  async chooseKeywordFeed() {
    await this.builder().getByRole('button', { name: /Keyword feed/ }).click();
    await expect(this.nameField()).toBeVisible();
  }

  /** Types a keyword and presses Enter, into the include list unless told otherwise. */
  async addKeyword(keyword: string, list: 'Include' | 'Exclude' = 'Include') {
    await this.builder().getByRole('group', { name: 'Add keywords to' }).getByRole('button', { name: list }).click();
    await this.keywordField().fill(keyword);
    await this.keywordField().press('Enter');
  }

  async expectPreviewCount(count: number, timeout = 10_000) {
    await expect(this.previewCount()).toHaveText(`${count} ${count === 1 ? 'match' : 'matches'}`, { timeout });
  }

  /** Saves the draft and waits for the feed's page, returning the feed's id from its address. */
  async save(label: 'Create feed' | 'Save changes') {
    const saved = this.page.waitForResponse((r) => {
      const path = new URL(r.url()).pathname;
      const method = r.request().method();
      return (method === 'POST' && path === '/api/boards/v2') || (method === 'PUT' && /^\/api\/boards\/[^/]+$/.test(path));
    });
    await this.builder().getByRole('button', { name: label }).click();
    expect((await saved).ok()).toBe(true);
    await expect(this.builder()).toBeHidden();
    await expect(this.page).toHaveURL(/\/feeds\/[^/?]+$/);
    return decodeURIComponent(new URL(this.page.url()).pathname.split('/')[2]);
  }

  async expectDocuments(titles: string[], absent: string[] = [], timeout = 15_000) {
    for (const title of titles) await expect(this.card(title)).toBeVisible({ timeout });
    for (const title of absent) await expect(this.card(title)).toHaveCount(0, { timeout });
  }

  async editFeed(name: string) {
    await this.page.getByRole('button', { name: `Edit feed ${name}` }).click();
    await expect(this.builder().getByRole('heading', { name: 'Edit feed' })).toBeVisible();
    await expect(this.nameField()).toHaveValue(name);
  }

  async openSettings() {
    await this.page.goto('/settings/feeds');
    await expect(this.page.getByRole('list', { name: 'Your feeds' })).toBeVisible();
  }

  /** Flips a feed's switch and waits until the server has saved it. */
  async setEnabled(name: string, enabled: boolean) {
    const saved = this.page.waitForResponse((r) => /\/api\/boards\/enable\//.test(r.url()) && r.request().method() === 'PUT');
    await this.enabledSwitch(name).click();
    expect((await saved).ok()).toBe(true);
    await expect(this.enabledSwitch(name)).toHaveAttribute('aria-checked', String(enabled));
  }
}
