/**
 * Following a website by its address: the server finds the feed the page announces
 * (`<link rel="alternate">`) and its items reach My Data; the followed list shows the site.
 */
import { randomBytes } from 'node:crypto';
import { startRssServer, type RssServer } from './support/rss-server';
import { expect, test } from './fixtures';

const tag = randomBytes(3).toString('hex');
const TITLES = [`Council approves budget ${tag}`, `Bridge repairs begin ${tag}`];

let site: RssServer;

test.beforeEach(async () => {
  site = await startRssServer(TITLES.map((title) => ({ title, summary: `All about ${title.toLowerCase()}.` })));
});

test.afterEach(async () => {
  await site.close();
});

test("a followed website's feed items appear in My Data", async ({ page, auth, shell, user, connectWebsite, feeds }) => {
  test.setTimeout(90_000);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');

  await page.goto('/connect');
  await page.getByRole('link', { name: 'Follow a website' }).click();
  await expect(page).toHaveURL(/\/connect\/website$/);
  await connectWebsite.follow(site.siteUrl);
  await expect(connectWebsite.confirmation()).toContainText('Following');

  await connectWebsite.confirmation().getByRole('link', { name: 'See followed websites' }).click();
  await expect(connectWebsite.row(site.siteUrl)).toBeVisible();

  await feeds.open();
  await shell.expectLive();
  for (const title of TITLES) await feeds.expectDocument(title, 45_000);
  expect(site.hits()).toBeGreaterThan(0);

  await connectWebsite.openFollowed();
  await connectWebsite.row(site.siteUrl).getByRole('button', { name: /^Unfollow/ }).click();
  await expect(page.getByRole('heading', { name: 'No websites yet' })).toBeVisible();
});

test("an address the server refuses shows the server's reason", async ({ auth, shell, user, connectWebsite }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await connectWebsite.open();
  await connectWebsite.follow('ftp://example.com/');
  await expect(connectWebsite.formError()).toHaveText('the website address must be a valid http(s) URL');
});
