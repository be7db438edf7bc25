/**
 * Suggested feeds by topic (/connect/rssTopics): following one flips it to Following, and the
 * server keeps it. The built-in topics point at public addresses; the server fetches them in
 * the background, which may fail here, so nothing below waits for their items.
 */
import { expect, test } from './fixtures';

test.beforeEach(async ({ auth, shell, user }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
});

test('the connect pages lead to suggested feeds, and following one flips it to Following', async ({ page, rssTopics }) => {
  await page.goto('/connect');
  await page.getByRole('link', { name: 'Browse suggested feeds' }).click();
  await expect(page).toHaveURL(/\/connect\/rssTopics$/);
  await expect(rssTopics.topics().first()).toBeVisible();
  expect(await rssTopics.topics().count()).toBeGreaterThan(0);

  const first = rssTopics.feeds().first();
  await expect(first).toHaveAttribute('data-following', 'false');
  const label = (await first.locator('.topic-feed-text > span').first().textContent()) ?? '';
  expect(label).not.toBe('');
  await rssTopics.follow(label);
  await rssTopics.expectFollowing(label, true);

  await page.reload();
  await rssTopics.expectFollowing(label, true);

  // The followed feed is among the user's feeds, and My Data's Website & RSS is connected.
  await page.goto('/connect/rss');
  await expect(page.getByTestId('rss-source').filter({ hasText: label })).toBeVisible();
  await page.getByRole('link', { name: 'Browse suggested feeds by topic' }).click();
  await expect(page).toHaveURL(/\/connect\/rssTopics$/);
  await page.goto('/feeds/home');
  await expect(page).toHaveURL(/\/feeds\/home\/rss_news$/);
});
