/**
 * The spec's full-page routes and the native-app bridge against the real server: /home lands
 * where the user's features say, /search/full searches without the side navigation (and a new
 * search stays there), a document link (/redirect/document) opens the preview, /document shows
 * the same document bare, and a host app's navigate and back messages move the app (only to its
 * own pages).
 */
import { randomBytes } from 'node:crypto';
import { generatedPdf } from './support/pdf';
import { expect, test } from './fixtures';

test.beforeEach(async ({ auth, shell, user }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
});

test('/home goes to the landing route', async ({ page }) => {
  await page.goto('/home');
  // A newcomer has no source connected: My Data itself is the landing route.
  await expect(page).toHaveURL(/\/feeds\/home$/);
});

test('/search/full searches without the side navigation, and a new search stays full page', async ({ page, shell, search }) => {
  await page.goto('/search/full?q=harbour');
  await expect(search.box()).toHaveValue('harbour');
  await expect(search.heading()).toHaveText('"harbour" in My Data');
  await expect(shell.sideNav()).toHaveCount(0);
  await expect(shell.navToggle()).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();

  await search.searchFor('levies');
  await expect(page).toHaveURL(/\/search\/full\?q=levies$/);
  await expect(search.heading()).toHaveText('"levies" in My Data');
});

test('a document link opens the preview, and /document shows the same document bare', async ({ page, shell, drive, preview }) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString('hex');
  const pdf = generatedPdf(`link-${tag}.pdf`, tag);
  const title = `Quarterly review ${tag}`;
  await drive.uploadAndWait([pdf]);
  await drive.openPreview(pdf.name);
  await preview.expectShowing(title, 'apps');
  // The preview's address holds what a document link carries: deeplink, source and key.
  const opened = new URL(page.url());
  const deeplink = decodeURIComponent(opened.pathname.split('/').pop() ?? '');
  const link = new URLSearchParams({
    deeplink,
    source: opened.searchParams.get('source') ?? '',
    access_key: opened.searchParams.get('access_key') ?? '',
    category: 'apps',
  });

  await page.goto(`/redirect/document?${link}`);
  await preview.expectShowing(title, 'apps');
  await expect(page).toHaveURL(/[?&]access_key=/);

  await page.goto(`/document?${link}`);
  await expect(preview.title()).toHaveText(title);
  await preview.expectPdfDrawn();
  await expect(shell.sideNav()).toHaveCount(0);

  // Another site's address is named, never opened.
  await page.goto(`/document?url=${encodeURIComponent('https://example.com/report.pdf')}`);
  await expect(page.getByRole('heading', { name: 'This address cannot be opened here' })).toBeVisible();
});

test('the host app’s messages navigate within the app and go back', async ({ page }) => {
  await page.goto('/feeds/home');
  await page.evaluate(() => window.postMessage(JSON.stringify({ type: 'navigate', path: '/notifications' }), '*'));
  await expect(page).toHaveURL(/\/notifications$/);

  // Only the app's own pages: another site is ignored.
  await page.evaluate(() => window.postMessage({ type: 'navigate', path: 'https://example.com/' }, '*'));
  await page.evaluate(() => window.postMessage({ type: 'download_done', kind: 'file', name: 'q3.pdf' }, '*'));
  await expect(page.getByText('Downloaded q3.pdf')).toBeVisible();
  await expect(page).toHaveURL(/\/notifications$/);

  await page.evaluate(() => window.postMessage({ type: 'history_back' }, '*'));
  await expect(page).toHaveURL(/\/feeds\/home$/);
});
