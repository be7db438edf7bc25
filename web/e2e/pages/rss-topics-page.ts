import { expect, type Page } from '@playwright/test';

/** /connect/rssTopics: feeds suggested by topic, each with Follow or Following. */
export class RssTopicsPage {
  constructor(private readonly page: Page) {}

  readonly topics = () => this.page.getByTestId('rss-topic');
  readonly topic = (title: string) => this.page.getByRole('region', { name: title });
  readonly feeds = () => this.page.getByTestId('suggested-feed');
  readonly feed = (label: string) => this.feeds().filter({ hasText: label });
  readonly followButton = (label: string) => this.page.getByRole('button', { name: `Follow ${label}`, exact: true });

  async open() {
    await this.page.goto('/connect/rssTopics');
    await expect(this.page.getByRole('heading', { name: 'Suggested feeds', level: 1 })).toBeVisible();
  }

  /** Follows a feed and waits until the server has taken it. */
  async follow(label: string) {
    const followed = this.page.waitForResponse(
      (r) => r.url().endsWith('/api/connect/rss') && r.request().method() === 'POST' && r.ok(),
    );
    await this.followButton(label).click();
    await followed;
  }

  async expectFollowing(label: string, following: boolean) {
    await expect(this.feed(label)).toHaveAttribute('data-following', String(following));
    if (following) await expect(this.feed(label)).toContainText('Following');
  }
}
