import { expect, type Page } from '@playwright/test';

/** The header's search box and the search page (/search...): box, tabs, sort, cards and pages. */
export class SearchPage {
  constructor(private readonly page: Page) {}

  readonly header = () => this.page.getByRole('banner');
  /** The header's collapsed box, named for what it searches ("Search My Data", "Search this feed"). */
  readonly headerButton = (label = 'Search My Data') => this.header().getByRole('button', { name: label });
  readonly headerInput = () => this.header().getByRole('searchbox');
  /** The search page's own box. */
  readonly box = () => this.page.getByRole('searchbox', { name: 'Search for' });
  readonly heading = () => this.page.locator('h1.page-title');
  readonly results = () => this.page.getByTestId('search-result');
  readonly result = (title: string) => this.page.getByRole('article', { name: title });
  readonly tabs = () => this.page.getByRole('navigation', { name: 'Result categories' });
  /** A category tab by its key (`all`, `drives`, `rss_news`...). */
  readonly tab = (key: string) => this.tabs().locator(`[data-testid="search-tab"][data-key="${key}"]`);
  readonly range = () => this.page.getByTestId('search-range');
  readonly error = () => this.page.getByTestId('search-error');
  readonly noResults = () => this.page.getByRole('heading', { name: 'No search results found' });
  readonly sort = () => this.page.getByRole('combobox', { name: 'Sort by' });

  /** Opens the header's box, types the query and presses Enter, as a person would. */
  async searchFromHeader(q: string, label = 'Search My Data') {
    await this.headerButton(label).click();
    await expect(this.headerInput()).toBeFocused();
    await this.headerInput().fill(q);
    await this.headerInput().press('Enter');
    await expect(this.page).toHaveURL(/\/search(\/[^?]*)?\?/);
  }

  /** Searches again from the search page's own box. */
  async searchFor(q: string) {
    await this.box().fill(q);
    await this.box().press('Enter');
  }

  /**
   * Waits until the results titled `titles` all show. A file is searchable a moment after its
   * upload completes (the index commits on its own schedule, one batch at a time), and a search
   * is cached for the page's life, so the page is reloaded between looks. The tabs' counts and
   * the page of results are two calls, so a load can straddle a commit; once every title has
   * shown the index holds them all, and one more load shows counts and results that agree.
   */
  async expectResults(titles: readonly string[], timeout = 30_000) {
    await expect(async () => {
      const shown = await Promise.all(titles.map((title) => this.result(title).isVisible()));
      if (!shown.every(Boolean)) await this.page.reload();
      for (const title of titles) await expect(this.result(title)).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout });
    await this.page.reload();
    for (const title of titles) await expect(this.result(title)).toBeVisible();
  }

  /** Waits for the results call the page makes next and returns its body. */
  nextResultsCall() {
    return this.page
      .waitForRequest((r) => r.method() === 'POST' && /\/api\/search(\/|$)/.test(new URL(r.url()).pathname) && r.postDataJSON()?.type === 'results')
      .then((r) => r.postDataJSON() as Record<string, unknown>);
  }
}
