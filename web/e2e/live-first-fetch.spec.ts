/**
 * The cause of rss-items.spec.ts failing in the full suite, pinned down: My Data's first list
 * fetch was still on its way when the socket opened and the items' DocumentIngested events
 * came. React Query joins an invalidation to a first fetch that is running, then takes that
 * fetch's answer (read before the items existed) as fresh, so the page kept its empty list. On
 * a busy server (the full suite) the first fetch is slow enough for this to happen; alone it
 * rarely is. Here the first answer is held back on purpose until the events have arrived.
 */
import { randomBytes } from 'node:crypto';
import { startRssServer, type FeedItem } from './support/rss-server';
import { expect, test } from './fixtures';

test('items ingested while My Data is still loading its first list appear without a reload', async ({
  page,
  auth,
  shell,
  user,
  connectRss,
  feeds,
}) => {
  test.setTimeout(60_000);
  const tag = randomBytes(3).toString('hex');
  const items: FeedItem[] = [`Ferry timetable changes ${tag}`, `Market opens early ${tag}`].map((title) => ({
    title,
    summary: `About ${title}.`,
  }));
  const feed = await startRssServer([]);
  try {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await connectRss.open();
    await connectRss.follow(feed.url, 'Slow Start Feed');

    // The first list request is answered by the server at once (an empty list) but handed to
    // the page only after the items' live events have arrived.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let fetched!: () => void;
    const firstFetched = new Promise<void>((resolve) => (fetched = resolve));
    let first = true;
    await page.route('**/api/documents?*', async (route) => {
      if (!first) return route.continue();
      first = false;
      const response = await route.fetch();
      fetched();
      await released;
      await route.fulfill({ response }).catch(() => {
        // The app may have given up on this request (cancelled it): nothing to hand over.
      });
    });
    const ingested = new Promise<void>((resolve) =>
      page.on('websocket', (ws) =>
        ws.on('framereceived', (frame) => String(frame.payload).includes('"DocumentIngested"') && resolve()),
      ),
    );

    await page.goto('/feeds/home');
    await firstFetched;
    feed.setItems(items);
    await ingested;
    release();

    for (const item of items) await feeds.expectDocument(item.title, 10_000);
    await expect(page.getByRole('heading', { name: 'No documents yet' })).toHaveCount(0);
  } finally {
    await feed.close();
  }
});
