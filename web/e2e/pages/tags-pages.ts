import { expect, type Locator, type Page } from '@playwright/test';

/** A document card's bookmark toggle, Tags picker and tag chips. */
export class CardTagControls {
  constructor(
    private readonly page: Page,
    private readonly card: Locator,
  ) {}

  readonly bookmark = () => this.card.getByRole('button', { name: /^Bookmark/ });
  readonly tagsButton = () => this.card.getByRole('button', { name: /^Tags of/ });
  readonly picker = () => this.page.getByRole('dialog', { name: /^Tags of/ });
  readonly chips = () => this.card.getByTestId('card-tags');
  readonly chip = (name: string) => this.chips().getByRole('link', { name, exact: true });

  async expectBookmarked(on: boolean, timeout = 5_000) {
    await expect(this.bookmark()).toHaveAttribute('aria-pressed', String(on), { timeout });
  }

  /** Toggles the bookmark and waits until the server has it. */
  async toggleBookmark() {
    await expect(this.bookmark()).toBeEnabled();
    const saved = this.page.waitForResponse((r) => r.url().includes('/api/bookmarks/') && r.ok());
    await this.bookmark().click();
    await saved;
  }

  /** Creates a tag in the card's picker ('Find tag or create one', Enter) and saves with 'Done'. */
  async tagWithNew(name: string) {
    await expect(this.tagsButton()).toBeEnabled();
    await this.tagsButton().click();
    const picker = this.picker();
    await picker.getByPlaceholder('Find tag or create one').fill(name);
    await picker.getByPlaceholder('Find tag or create one').press('Enter');
    await expect(picker.getByRole('checkbox', { name, exact: true })).toBeChecked();
    const saved = this.page.waitForResponse((r) => /\/api\/tag\/[^/?]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST' && r.ok());
    await picker.getByRole('button', { name: 'Done' }).click();
    await saved;
    await expect(picker).toBeHidden();
  }

  async expectTag(name: string, timeout = 5_000) {
    await expect(this.chip(name)).toBeVisible({ timeout });
  }
}

/** /needlbox/bookmarks/all and /needlbox/tags/all: document lists chosen by bookmark or tag. */
export class TaggedListsPage {
  constructor(private readonly page: Page) {}

  readonly card = (text: string) => this.page.getByTestId('document-card').filter({ hasText: text });
  readonly tagFilter = () => this.page.getByRole('navigation', { name: 'Tag filter' });

  async openBookmarks() {
    await this.page.goto('/needlbox/bookmarks/all');
    await expect(this.page.getByRole('heading', { name: 'Bookmarks', level: 1 })).toBeVisible();
  }

  async expectFilter(name: string) {
    await expect(this.tagFilter().getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', 'true');
  }
}

/** settings/manage-tags: the user's tags, renamed and deleted in place. */
export class ManageTagsPage {
  constructor(private readonly page: Page) {}

  readonly row = (name: string) => this.page.getByTestId('tag-row').filter({ has: this.page.getByRole('link', { name, exact: true }) });

  async open() {
    await this.page.goto('/settings/manage-tags');
    await expect(this.page.getByRole('heading', { name: 'Tags Manager', level: 1 })).toBeVisible();
  }

  /** Renames a tag inline and waits until the server has it. */
  async rename(from: string, to: string) {
    await this.page.getByRole('button', { name: `Rename ${from}`, exact: true }).click();
    const input = this.page.getByRole('textbox', { name: `New name for ${from}` });
    await input.fill(to);
    const saved = this.page.waitForResponse((r) => r.url().includes('/api/tag/') && r.request().method() === 'PUT' && r.ok());
    await input.press('Enter');
    await saved;
    await expect(this.row(to)).toBeVisible();
  }
}
