/**
 * Feeds that cannot be read say so, on the RSS page and in My Data: their error, when they were
 * last tried, Retry (which fetches at once rather than after the back-off) and Remove; My Data
 * does not claim they are "being fetched". A feed followed without a name takes the title the
 * feed gives itself once it is read. The feeds are served on 127.0.0.1 by the test.
 */
import { randomBytes } from 'node:crypto';
import { serveLocally } from './support/local-server';
import { rssDocument } from './support/rss-server';
import { expect, test } from './fixtures';

interface FlakyFeeds {
  /** Answers 404 until `fix()`, then an RSS feed titled "E2E Feed". */
  flakyUrl: string;
  /** Always 404. */
  brokenUrl: string;
  fix: () => void;
  close: () => Promise<void>;
}

async function startFlakyFeeds(titles: string[]): Promise<FlakyFeeds> {
  let fixed = false;
  let body = '';
  const { base, close } = await serveLocally((request, response) => {
    if (fixed && request.url?.startsWith('/flaky.xml')) {
      response.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      response.end(body);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  body = rssDocument(base, titles.map((title) => ({ title, summary: `About ${title}.` })));
  return { flakyUrl: `${base}/flaky.xml`, brokenUrl: `${base}/gone.xml`, fix: () => (fixed = true), close };
}

test('a feed that cannot be fetched shows why and when, is retried at once and takes its own title; another is removed', async ({
  page,
  auth,
  shell,
  user,
  connectRss,
  feeds,
}) => {
  test.setTimeout(90_000);
  // A feed's row by its name alone (every row's address holds 127.0.0.1).
  const named = (label: string) => ({ has: page.getByText(label, { exact: true }) });
  const row = (label: string) => connectRss.feeds().getByTestId('rss-source').filter(named(label));
  const problem = (label: string) => feeds.feedProblems().getByRole('listitem').filter(named(label));
  const title = `Harbour reopens ${randomBytes(3).toString('hex')}`;
  const server = await startFlakyFeeds([title]);
  try {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    await connectRss.open();
    await connectRss.addFeed(server.flakyUrl);
    // Without a name, the host stands in until the feed is read.
    await expect(row('127.0.0.1')).toBeVisible();
    await connectRss.follow(server.brokenUrl, 'Broken feed');
    const flaky = row('127.0.0.1');
    await expect(flaky).toContainText(/Could not be fetched: .*404/, { timeout: 20_000 });
    await expect(flaky).toContainText(/Last tried (just now|1 min ago); next try in/);
    await expect(flaky.getByRole('button', { name: 'Retry 127.0.0.1 now' })).toBeVisible();
    await expect(row('Broken feed')).toContainText('Could not be fetched', { timeout: 20_000 });

    // My Data says they cannot be fetched, and why, never that they are being fetched.
    await feeds.open('/feeds/home/rss_news');
    await expect(page.getByRole('heading', { name: 'Your feeds could not be fetched' })).toBeVisible();
    await expect(page.getByText(/being fetched/)).toHaveCount(0);
    await expect(feeds.feedProblems()).toHaveAccessibleName('2 feeds cannot be fetched');
    await expect(problem('Broken feed')).toContainText(/Could not be fetched: .*404/);
    await expect(problem('Broken feed')).toContainText('never read');

    // The far side is fixed; a retry fetches now, not a minute or more later.
    server.fix();
    await problem('127.0.0.1').getByRole('button', { name: 'Retry 127.0.0.1 now' }).click();
    await feeds.expectDocument(title, 20_000);
    await expect(feeds.feedProblems()).toHaveAccessibleName('A feed cannot be fetched', { timeout: 10_000 });
    await expect(problem('127.0.0.1')).toHaveCount(0);

    // Remove the one that stays broken.
    await problem('Broken feed').getByRole('button', { name: 'Remove Broken feed' }).click();
    await expect(feeds.feedProblems()).toHaveCount(0);

    // Read once, the feed is named by its own title.
    await connectRss.open();
    await expect(row('E2E Feed')).toBeVisible();
    await expect(row('E2E Feed')).not.toContainText('Could not be fetched');
    await expect(row('Broken feed')).toHaveCount(0);
  } finally {
    await server.close();
  }
});
