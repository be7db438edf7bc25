import { expect, test } from './fixtures';

test.describe('connecting RSS feeds', () => {
  test.beforeEach(async ({ auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
  });

  test('the connect page leads to adding a feed, which starts empty', async ({ page, connectRss }) => {
    await page.goto('/connect');
    await page.getByRole('link', { name: 'Add RSS' }).click();
    await expect(page).toHaveURL(/\/connect\/rss$/);
    await expect(connectRss.urlField()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No feeds yet' })).toBeVisible();
  });

  test('an added feed is listed and keeps a changed priority after a reload', async ({ page, user, connectRss }) => {
    await connectRss.open();
    await connectRss.follow(`https://example.com/${user.username}/feed.xml`, 'E2E Morning News');
    await connectRss.expectPriority('E2E Morning News', 'Medium');

    await connectRss.setPriority('E2E Morning News', 'High');
    await expect(page.getByText('Priority updated successfully.')).toBeVisible();
    await page.reload();
    await connectRss.expectPriority('E2E Morning News', 'High');
  });

  test("a feed address the server refuses shows the server's message", async ({ connectRss }) => {
    await connectRss.open();
    await connectRss.addFeed('ftp://example.com/feed.xml');
    await expect(connectRss.formError()).toHaveText('the feed address must start with http:// or https://');
    await expect(connectRss.feeds()).toHaveCount(0);
  });

  test('a missing address is caught before reaching the server', async ({ page, connectRss }) => {
    await connectRss.open();
    let posted = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/connect/rss')) posted = true;
    });
    await connectRss.addFeed('');
    await expect(page.getByText('URL is a required field')).toBeVisible();
    expect(posted).toBe(false);
  });
});
