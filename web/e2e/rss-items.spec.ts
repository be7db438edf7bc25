/**
 * A followed feed's items reach My Data through the server's background fetcher (the web server
 * runs with NEEDL_FETCH_ALLOW=127.0.0.1 and a 2 s interval), and read state travels between
 * browsers of the same user over the live socket.
 */
import { randomBytes } from 'node:crypto';
import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { ConnectRssPage } from './pages/connect-rss-page';
import { FeedsPage } from './pages/feeds-page';
import { PreviewPage } from './pages/preview-page';
import { startRssServer, type RssServer } from './support/rss-server';
import { expect, test } from './fixtures';

const tag = randomBytes(3).toString('hex');
const TITLES = [`Harbour reopens ${tag}`, `Rates held steady ${tag}`, `Library extends hours ${tag}`];

let feed: RssServer;

test.beforeEach(async () => {
  feed = await startRssServer(TITLES.map((title) => ({ title, summary: `The story of ${title.toLowerCase()}.` })));
});

test.afterEach(async () => {
  await feed.close();
});

test("a followed feed's items appear in My Data and read state reaches another browser", async ({ browser, user }) => {
  test.setTimeout(90_000);
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    await new AuthPages(pageA).signUp(user);
    await new AppShell(pageA).expectSignedInAt('/feeds/home');

    const connect = new ConnectRssPage(pageA);
    await connect.open();
    await connect.follow(feed.url, 'E2E Local Feed');

    const feedsA = new FeedsPage(pageA);
    await feedsA.open();
    await new AppShell(pageA).expectLive();
    for (const title of TITLES) await feedsA.expectDocument(title, 30_000);
    expect(feed.hits()).toBeGreaterThan(0);

    await new AuthPages(pageB).signIn(user);
    // With a feed followed, the landing route is My Data's Website & RSS.
    await new AppShell(pageB).expectSignedInAt('/feeds/home/rss_news');
    const feedsB = new FeedsPage(pageB);
    await feedsB.expectDocument(TITLES[1]);
    await feedsB.expectRead(TITLES[1], false);
    await new AppShell(pageB).expectLive();
    let reloads = 0;
    pageB.on('load', () => (reloads += 1));

    await feedsA.openPreview(TITLES[1]);
    const preview = new PreviewPage(pageA);
    await preview.expectShowing(TITLES[1]);
    await preview.expectRead(false);
    await preview.toggleRead();
    await preview.expectRead(true);

    await feedsB.expectRead(TITLES[1], true, 10_000);
    await feedsB.expectRead(TITLES[0], false);
    expect(reloads).toBe(0);
  } finally {
    await first.close();
    await second.close();
  }
});
