/**
 * Custom feeds live across browsers: one user in two browsers. A definition changed in the first
 * re-evaluates the feed's history on the second's open feed page, and a new item that matches
 * (fetched by the server's background fetcher, every 2 s here) reaches that page and the second
 * browser's bell, all without a reload.
 */
import { randomBytes } from 'node:crypto';
import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { ConnectRssPage } from './pages/connect-rss-page';
import { CustomFeedPages } from './pages/custom-feed-pages';
import { FeedsPage } from './pages/feeds-page';
import { startRssServer, type FeedItem, type RssServer } from './support/rss-server';
import { expect, test } from './fixtures';

const tag = randomBytes(3).toString('hex');
const REPO = `Repo rate cut surprises markets ${tag}`;
const HARBOUR = `Harbour reopens after storm ${tag}`;
const LATER = `Repo rate held in an unscheduled meeting ${tag}`;
const FEED = `Rates live ${tag}`;
const ITEMS: FeedItem[] = [
  { title: REPO, summary: 'The central bank cut the repo rate by 25 basis points.' },
  { title: HARBOUR, summary: 'Ships are moving again after the storm closed the port.' },
];

let corpus: RssServer;

test.beforeEach(async () => {
  corpus = await startRssServer(ITEMS);
});

test.afterEach(async () => {
  await corpus.close();
});

test('a feed change and a new match reach a second browser live', async ({ browser, user }) => {
  test.setTimeout(150_000);
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    const customA = new CustomFeedPages(pageA);
    const customB = new CustomFeedPages(pageB);

    await new AuthPages(pageA).signUp(user);
    await new AppShell(pageA).expectSignedInAt('/feeds/home');
    const connect = new ConnectRssPage(pageA);
    await connect.open();
    await connect.follow(corpus.url, 'E2E Live Rates');
    const feedsA = new FeedsPage(pageA);
    await feedsA.open();
    for (const { title } of ITEMS) await feedsA.expectDocument(title, 30_000);

    await customA.openFromNav();
    await customA.chooseKeywordFeed();
    await customA.nameField().fill(FEED);
    await customA.addKeyword('"repo rate"');
    await customA.expectPreviewCount(1);
    const boardId = await customA.save('Create feed');

    // Alerts on at once, from the feed manager.
    await customA.openSettings();
    const row = customA.settingsRow(FEED);
    const alertsSaved = pageA.waitForResponse((r) => /\/api\/boards\/[^/]+\/alerts$/.test(r.url()));
    await row.getByLabel('Alerts').selectOption('immediate');
    expect((await alertsSaved).ok()).toBe(true);

    // The second browser on the feed's page.
    await new AuthPages(pageB).signIn(user);
    await new AppShell(pageB).expectLive();
    await pageB.goto(`/feeds/${encodeURIComponent(boardId)}`);
    await new AppShell(pageB).expectLive();
    await customB.expectDocuments([REPO], [HARBOUR]);
    await expect(pageB.getByTestId('notification-bell')).toHaveAccessibleName('Notifications');
    let reloads = 0;
    pageB.on('load', () => (reloads += 1));

    // A definition changed in the first browser: the history re-evaluated on the second.
    await pageA.goto(`/feeds/${encodeURIComponent(boardId)}`);
    await customA.editFeed(FEED);
    await customA.addKeyword('harbour');
    await customA.expectPreviewCount(2);
    await customA.save('Save changes');
    await customB.expectDocuments([REPO, HARBOUR], [], 15_000);

    // A new item that matches: fetched, matched, on the page and on the bell.
    corpus.setItems([{ title: LATER, summary: 'The repo rate was held at 6.25 per cent.' }, ...ITEMS]);
    await customB.expectDocuments([LATER], [], 30_000);
    await expect(pageB.getByTestId('notification-bell')).toHaveAccessibleName(/^Notifications, \d+ unread$/, { timeout: 30_000 });
    expect(reloads).toBe(0);
  } finally {
    await first.close();
    await second.close();
  }
});
