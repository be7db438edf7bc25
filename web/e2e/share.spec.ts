/**
 * Sharing a document: its owner makes a link (copied to the clipboard) that lets another
 * signed-in person read that one document; without the link's key, it cannot be found.
 */
import { randomBytes } from 'node:crypto';
import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { DrivePage } from './pages/drive-page';
import { PreviewPage } from './pages/preview-page';
import { generatedPdf } from './support/pdf';
import { uniqueUser } from './support/users';
import { expect, test } from './fixtures';

test('a shared link lets a colleague read the document; without its key they cannot find it', async ({ browser, user }) => {
  test.setTimeout(120_000);
  const tag = randomBytes(3).toString('hex');
  const pdf = generatedPdf(`shared-${tag}.pdf`, tag);
  const colleague = uniqueUser();
  const owner = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const other = await browser.newContext();
  try {
    const pageA = await owner.newPage();
    await new AuthPages(pageA).signUp(user);
    await new AppShell(pageA).expectSignedInAt('/feeds/home');
    const drive = new DrivePage(pageA);
    await drive.open();
    await drive.uploadFiles([pdf]);
    await drive.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);
    await drive.openPreview(pdf.name);
    const previewA = new PreviewPage(pageA);
    await previewA.expectShowing(`Quarterly review ${tag}`, 'apps');
    // The card opened the preview with its own access key.
    expect(new URL(pageA.url()).searchParams.get('access_key')).toBeTruthy();

    const link = await previewA.share();
    const shared = new URL(link);
    expect(shared.origin).toBe(new URL(pageA.url()).origin);
    expect(shared.pathname).toMatch(/^\/preview\/apps\//);
    expect(shared.searchParams.get('public_access_key')).toBeTruthy();

    const pageB = await other.newPage();
    const errors: string[] = [];
    pageB.on('pageerror', (e) => errors.push(e.message));
    await new AuthPages(pageB).signUp(colleague);
    await new AppShell(pageB).expectSignedInAt('/feeds/home');
    await pageB.goto(link);
    const previewB = new PreviewPage(pageB);
    await previewB.expectShowing(`Quarterly review ${tag}`, 'apps');
    // The link reaches the file too: pdf.js draws the shared PDF for the colleague.
    await previewB.expectPdfDrawn();
    // Not theirs to delete.
    await expect(previewB.document().getByRole('button', { name: /^Delete/ })).toHaveCount(0);

    const withoutKey = new URL(link);
    withoutKey.searchParams.delete('public_access_key');
    await pageB.goto(withoutKey.toString());
    await expect(previewB.notFound()).toBeVisible();

    const wrongKey = new URL(link);
    wrongKey.searchParams.set('public_access_key', '0'.repeat(32));
    await pageB.goto(wrongKey.toString());
    await expect(previewB.notFound()).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await owner.close();
    await other.close();
  }
});
