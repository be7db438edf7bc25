/**
 * Uploading to Needl Drive against the real server: the file goes through init, the signed
 * link and complete, is extracted into a document, shows in the drive, previews with pdf.js,
 * and its read state reaches a second browser of the same user over the live socket.
 */
import { randomBytes } from 'node:crypto';
import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { DrivePage } from './pages/drive-page';
import { PreviewPage } from './pages/preview-page';
import { generatedPdf, uploadPdf } from './support/pdf';
import { expect, test } from './fixtures';

test('an uploaded PDF completes, shows in the drive, previews, and its read state reaches another browser', async ({
  browser,
  user,
}) => {
  test.setTimeout(120_000);
  const pdf = uploadPdf(randomBytes(3).toString('hex'));
  test.info().annotations.push({ type: 'pdf', description: pdf.origin });
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    const errors: string[] = [];
    pageA.on('pageerror', (e) => errors.push(e.message));
    await new AuthPages(pageA).signUp(user);
    await new AppShell(pageA).expectSignedInAt('/feeds/home');

    const driveA = new DrivePage(pageA);
    await driveA.open();
    await driveA.uploadFiles([pdf]);
    await expect(driveA.upload(pdf.name)).toBeVisible();
    await driveA.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);
    await expect(driveA.card(pdf.name)).toBeVisible({ timeout: 10_000 });
    await expect(driveA.card(pdf.name).getByTestId('file-facts')).toContainText(/\d+(\.\d+)? (B|KB|MB)\b/);

    await new AuthPages(pageB).signIn(user);
    // With a file in the drive, the landing route is My Data's Drives.
    await new AppShell(pageB).expectSignedInAt('/feeds/home/drives');
    const driveB = new DrivePage(pageB);
    await driveB.open();
    await driveB.expectRead(pdf.name, false);
    await new AppShell(pageB).expectLive();
    let reloads = 0;
    pageB.on('load', () => (reloads += 1));

    await driveA.openPreview(pdf.name);
    const preview = new PreviewPage(pageA);
    await expect(pageA).toHaveURL(/\/preview\/apps\//);
    await preview.expectPdfDrawn();
    await preview.expectRead(false);
    await preview.toggleRead();
    await preview.expectRead(true);

    await driveB.expectRead(pdf.name, true, 10_000);
    expect(reloads).toBe(0);

    // A passage named by page and box is marked on its page.
    await pageA.goto(`${pageA.url()}&page=1&bbox=72,72,360,160`);
    await preview.expectPdfDrawn();
    await expect(preview.highlight()).toBeVisible();
    await expect(preview.highlight()).toBeInViewport();
    expect(errors).toEqual([]);
  } finally {
    await first.close();
    await second.close();
  }
});

test('a passage named by its text is found in the layout and marked', async ({ page, auth, shell, user, drive }) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString('hex');
  const pdf = generatedPdf(`passage-${tag}.pdf`, tag);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await drive.open();
  await drive.uploadFiles([pdf]);
  await drive.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);
  await drive.openPreview(pdf.name);
  const preview = new PreviewPage(page);
  await preview.expectShowing(`Quarterly review ${tag}`, 'apps');
  await preview.expectPdfDrawn();
  await page.goto(`${page.url()}&highlight=${encodeURIComponent('exports led the growth')}`);
  await expect(preview.highlight()).toBeVisible({ timeout: 10_000 });
  const box = await preview.highlight().boundingBox();
  const pageBox = await preview.pdfPages().first().boundingBox();
  // The third line sits in the upper part of the page, across its left side.
  expect(box && pageBox && box.y - pageBox.y < pageBox.height / 3).toBe(true);
});

test('a file type the drive does not take is refused before upload', async ({ page, auth, shell, user, drive }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await drive.open();
  let initiated = false;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/upload/init')) initiated = true;
  });
  const chooser = page.waitForEvent('filechooser');
  await drive.uploadButton().click();
  await (await chooser).setFiles({ name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
  await expect(page.getByRole('alert').filter({ hasText: 'File setup.exe type: application/x-msdownload not allowed' })).toBeVisible();
  expect(initiated).toBe(false);
});

test('a deleted upload leaves the drive and the storage page', async ({ page, auth, shell, user, drive }) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString('hex');
  const pdf = generatedPdf(`delete-${tag}.pdf`, tag);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await drive.open();
  await drive.uploadFiles([pdf]);
  await drive.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);

  await page.goto('/settings/storage');
  await expect(page.getByRole('progressbar', { name: 'Storage used' })).toBeVisible();
  await expect(page.getByRole('table')).toContainText('PDF');

  await drive.open();
  await drive.card(pdf.name).getByRole('button', { name: `Delete ${pdf.name}` }).click();
  await page.getByRole('dialog', { name: 'Delete this file?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(drive.card(pdf.name)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No files yet' })).toBeVisible();

  await page.goto('/settings/storage');
  await expect(page.getByText('0 B of 1 GB used')).toBeVisible();
});

test('uploads outlive leaving the drive: the shell shows them running, and the drive still lists them', async ({
  page,
  auth,
  shell,
  user,
  drive,
}) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString('hex');
  const files = [generatedPdf(`away-a-${tag}.pdf`, `${tag}a`), generatedPdf(`away-b-${tag}.pdf`, `${tag}b`)];
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await drive.open();
  // Hold the completion back, so the files are still on their way when the user leaves.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/upload/complete', async (route) => {
    await released;
    await route.continue();
  });
  await drive.uploadFiles(files);
  await expect(drive.upload(files[0].name)).toBeVisible();

  // In-app navigation (a reload would end the page's uploads).
  await shell.sideNav().getByRole('link', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/connect$/);
  const indicator = page.getByTestId('upload-indicator');
  await expect(indicator.getByRole('status')).toHaveText('Uploading 2 files…');
  release();

  await page.getByRole('link', { name: 'Open Needl Drive' }).click();
  await expect(page).toHaveURL(/\/apps\/needldrive$/);
  for (const file of files) await drive.expectUploadStatus(file.name, 'COMPLETED', 60_000);
  await expect(indicator).toHaveCount(0);
  for (const file of files) await expect(drive.card(file.name)).toBeVisible({ timeout: 10_000 });
});
