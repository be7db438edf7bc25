/**
 * Custom feeds end to end, against the real server and a local RSS feed as the corpus: a keyword
 * feed built in the builder overlay previews and then lists exactly the matching items; editing
 * its definition re-evaluates the whole history (an older item joins the list) and Undo takes the
 * change back; turning the feed off in settings sticks and takes it out of the navigation's
 * list only when pricing says so (self-hosted: it stays, marked off).
 */
import { randomBytes } from 'node:crypto';
import { AppShell } from './pages/app-shell';
import { ConnectRssPage } from './pages/connect-rss-page';
import { CustomFeedPages } from './pages/custom-feed-pages';
import { startRssServer, type RssServer } from './support/rss-server';
import { expect, test } from './fixtures';

const tag = randomBytes(3).toString('hex');
const REPO = `Repo rate cut surprises markets ${tag}`;
const INFLATION = `Inflation eases for a third month ${tag}`;
const HARBOUR = `Harbour reopens after storm ${tag}`;
const FEED = `Rates ${tag}`;

let corpus: RssServer;

test.beforeEach(async () => {
  corpus = await startRssServer([
    { title: REPO, summary: 'The central bank cut the repo rate by 25 basis points.' },
    { title: INFLATION, summary: 'Consumer prices rose more slowly than expected.' },
    { title: HARBOUR, summary: 'Ships are moving again after the storm closed the port.' },
  ]);
});

test.afterEach(async () => {
  await corpus.close();
});

test('a keyword feed is built, lists its matches, is edited over its history and is turned off', async ({ page, auth, user, feeds }) => {
  test.setTimeout(120_000);
  const shell = new AppShell(page);
  const custom = new CustomFeedPages(page);

  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  const connect = new ConnectRssPage(page);
  await connect.open();
  await connect.follow(corpus.url, 'E2E Rates Corpus');
  await feeds.open();
  for (const title of [REPO, INFLATION, HARBOUR]) await feeds.expectDocument(title, 30_000);

  // Build: the overlay from the navigation, a keyword on Enter, the live preview.
  await custom.openFromNav();
  await custom.chooseKeywordFeed();
  await custom.nameField().fill(FEED);
  await custom.addKeyword('"rate cut');
  await expect(custom.builder().getByRole('alert')).toHaveText('Invalid keyword. Quotes are either imbalanced or not at ends.');
  await custom.addKeyword('"repo rate" OR inflation');
  await expect(custom.included().getByText('"repo rate" OR inflation')).toBeVisible();
  await custom.expectPreviewCount(2);
  await expect(custom.builder().getByText(REPO)).toBeVisible();

  const boardId = await custom.save('Create feed');
  await expect(shell.title()).toHaveText(FEED);
  await expect(page.getByText(boardId)).toHaveCount(0);
  await custom.expectDocuments([REPO, INFLATION], [HARBOUR]);
  await expect(custom.navFeed(FEED)).toBeVisible();

  // Edit: a new keyword re-evaluates the whole history, so the older harbour item joins.
  await custom.editFeed(FEED);
  await custom.addKeyword('harbour');
  await custom.expectPreviewCount(3);
  await custom.save('Save changes');
  await custom.expectDocuments([REPO, INFLATION, HARBOUR]);

  // Undo takes the definition back, and the list with it.
  await page.getByRole('button', { name: 'Undo last change' }).click();
  await custom.expectDocuments([REPO, INFLATION], [HARBOUR]);

  // Exclude: a keyword moved to the other list leaves the first.
  await custom.editFeed(FEED);
  await custom.addKeyword('inflation', 'Exclude');
  await expect(custom.builder().getByRole('list', { name: 'Excluded keywords' }).getByText('inflation')).toBeVisible();
  await custom.expectPreviewCount(1);
  await custom.save('Save changes');
  await custom.expectDocuments([REPO], [INFLATION, HARBOUR]);

  // Settings: off, and still off after a reload.
  await custom.openSettings();
  await expect(custom.enabledSwitch(FEED)).toHaveAttribute('aria-checked', 'true');
  await custom.setEnabled(FEED, false);
  await page.reload();
  await expect(custom.enabledSwitch(FEED)).toHaveAttribute('aria-checked', 'false');
});

test('Escape closes the builder overlay and an unknown page shows nothing', async ({ page, auth, user }) => {
  const shell = new AppShell(page);
  const custom = new CustomFeedPages(page);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');

  await custom.openFromNav();
  await page.keyboard.press('Escape');
  await expect(custom.builder()).toBeHidden();
  await expect(page).not.toHaveURL(/overlay-/);

  const logged: string[] = [];
  page.on('console', (message) => message.type() === 'error' && logged.push(message.text()));
  await page.goto('/feeds/home?overlay-type=custom-feed&overlay-page=no-such-page');
  await expect(custom.builder()).toBeVisible();
  await expect(custom.builder().getByRole('heading')).toHaveCount(0);
  await expect.poll(() => logged.some((text) => text.includes('Unknown CustomFeed overlay page'))).toBe(true);
});
