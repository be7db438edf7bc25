import { expect, type Page } from '@playwright/test';

/** /connect/public: the instance's public source catalogue, its search and filters, and Follow. */
export class CataloguePage {
  constructor(private readonly page: Page) {}

  readonly list = () => this.page.getByRole('list', { name: 'Public sources' });
  readonly entries = () => this.page.getByTestId('public-source');
  readonly entry = (title: string) => this.list().getByRole('listitem', { name: title, exact: true });
  readonly searchBox = () => this.page.getByRole('searchbox', { name: 'Search sources' });
  readonly show = () => this.page.getByRole('combobox', { name: 'Show' });
  readonly group = () => this.page.getByRole('combobox', { name: 'Group' });
  readonly followButton = (title: string) => this.page.getByRole('button', { name: `Follow ${title}`, exact: true });
  readonly unfollowButton = (title: string) => this.page.getByRole('button', { name: `Unfollow ${title}`, exact: true });
  readonly select = (title: string) => this.page.getByRole('checkbox', { name: `Select ${title}`, exact: true });
  readonly selectedBar = () => this.page.getByRole('group', { name: 'Selected sources' });

  async open(query = '') {
    await this.page.goto(`/connect/public${query}`);
    await expect(this.page.getByRole('heading', { name: 'Public sources', level: 1 })).toBeVisible();
    await expect(this.list()).toBeVisible({ timeout: 10_000 });
  }

  async search(words: string) {
    await this.searchBox().fill(words);
  }

  /** Follows (or unfollows) one entry by its button and waits until the server has taken it. */
  async setFollowing(title: string, following: boolean) {
    const answered = this.page.waitForResponse(
      (r) => /\/api\/connect\/public(\?delink=true)?$/.test(r.url()) && r.request().method() === 'POST' && r.ok(),
    );
    await (following ? this.followButton(title) : this.unfollowButton(title)).click();
    await answered;
  }

  /** Follows the selected entries and waits until the server has taken them. */
  async followSelected() {
    const answered = this.page.waitForResponse(
      (r) => r.url().endsWith('/api/connect/public/multiple') && r.request().method() === 'POST' && r.ok(),
    );
    await this.selectedBar().getByRole('button', { name: 'Follow selected' }).click();
    await answered;
  }

  async expectFollowing(title: string, following: boolean) {
    await expect(this.entry(title)).toHaveAttribute('data-following', String(following));
    const mark = this.entry(title).getByText('Following', { exact: true });
    if (following) await expect(mark).toBeVisible();
    else await expect(mark).toBeHidden();
  }
}
