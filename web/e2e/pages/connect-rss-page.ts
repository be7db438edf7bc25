import { expect, type Page } from '@playwright/test';

export type PriorityLabel = 'High' | 'Medium' | 'Low';

const VALUES: Record<PriorityLabel, string> = { High: 'HIGH', Medium: 'MEDIUM', Low: 'LOW' };

/** /connect/rss: the add-feed form and the followed feeds with their priority. */
export class ConnectRssPage {
  constructor(private readonly page: Page) {}

  readonly urlField = () => this.page.getByLabel('Feed URL');
  readonly labelField = () => this.page.getByLabel('Label (optional)');
  readonly formError = () => this.page.getByRole('form', { name: 'Add RSS feed' }).getByRole('alert');
  readonly feeds = () => this.page.getByRole('list', { name: 'Followed feeds' });
  readonly row = (label: string) => this.feeds().getByTestId('rss-source').filter({ hasText: label });
  readonly priority = (label: string) => this.page.getByRole('combobox', { name: `Priority of ${label}` });

  async open() {
    await this.page.goto('/connect/rss');
    await expect(this.urlField()).toBeVisible();
  }

  async addFeed(url: string, label?: string) {
    await this.urlField().fill(url);
    if (label) await this.labelField().fill(label);
    await this.page.getByRole('button', { name: 'Add feed' }).click();
  }

  /** Adds a feed and waits until it is listed. */
  async follow(url: string, label: string) {
    await this.addFeed(url, label);
    await expect(this.row(label)).toBeVisible();
  }

  /** Picks a priority for one feed and waits until the server has saved it. */
  async setPriority(label: string, priority: PriorityLabel) {
    const saved = this.page.waitForResponse(
      (r) => /\/api\/source\/rss\/[^/]+$/.test(r.url()) && r.request().method() === 'PUT' && r.ok(),
    );
    await this.priority(label).selectOption(VALUES[priority]);
    await saved;
  }

  async expectPriority(label: string, priority: PriorityLabel) {
    await expect(this.priority(label)).toHaveValue(VALUES[priority]);
  }
}
