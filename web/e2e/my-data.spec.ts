/**
 * My Data's tabs come from the category index: a new user lands on an empty My Data that says
 * how to connect a source; once a feed is followed, Website & RSS is connected and both `/` and
 * /feeds/home land on it, with the feed's items.
 */
import { randomBytes } from 'node:crypto';
import { startRssServer, type RssServer } from './support/rss-server';
import { expect, test } from './fixtures';

const tag = randomBytes(3).toString('hex');
const TITLES = [`Tide tables published ${tag}`, `Museum opens wing ${tag}`, `Trains run late ${tag}`];

let feed: RssServer;

test.beforeEach(async () => {
  feed = await startRssServer(TITLES.map((title) => ({ title, summary: `News: ${title.toLowerCase()}.` })));
});

test.afterEach(async () => {
  await feed.close();
});

test('a new user lands on an empty My Data, and after following a feed lands on Website & RSS with its items', async ({
  page,
  auth,
  shell,
  user,
  connectRss,
  feeds,
}) => {
  test.setTimeout(90_000);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await expect(feeds.emptyMyData()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Connect a source' })).toHaveAttribute('href', '/connect');
  await expect(page.getByRole('link', { name: 'Upload files' })).toHaveAttribute('href', '/apps/needldrive');
  await expect(feeds.tab('rss_news')).toContainText('Website & RSS');
  await feeds.expectTab('rss_news', { connected: false, count: 0 });
  await expect(feeds.tabs().getByRole('link')).toHaveCount(8);

  await connectRss.open();
  await connectRss.follow(feed.url, 'My Data Feed');

  await page.goto('/feeds/home');
  await expect(page).toHaveURL(/\/feeds\/home\/rss_news$/);
  await shell.expectLive();
  await feeds.expectTab('rss_news', { connected: true });
  await expect(feeds.tab('rss_news')).toHaveAttribute('aria-current', 'page');
  for (const title of TITLES) await feeds.expectDocument(title, 30_000);
  // The count follows the items in over the live socket.
  await feeds.expectTab('rss_news', { connected: true, count: TITLES.length }, 10_000);

  await page.goto('/');
  await expect(page).toHaveURL(/\/feeds\/home\/rss_news$/);
  await feeds.expectDocument(TITLES[0]);

  // The drive's tab keeps its upload page.
  await feeds.tab('drives').click();
  await expect(page).toHaveURL(/\/feeds\/home\/drives$/);
  await expect(page.getByRole('button', { name: 'Upload File(s)' })).toBeVisible();
});
