/**
 * A research report from upload to export: a generated PDF goes up through the drive, a custom
 * research report is made over it, generated from the dashboard (its status follows over the
 * live socket), opened in the overlay, copied, its raw data downloaded and exported as a PDF;
 * then the dashboard and the report page are checked on a phone.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { ReportsPage } from './pages/reports-page';
import { expectNoSideScroll, expectTouchTargets } from './support/layout';
import { writePdf, type TestPdf } from './support/pdf';

const tag = randomBytes(3).toString('hex');

const acmeReview = (): TestPdf => ({
  name: `acme-${tag}.pdf`,
  buffer: writePdf(`Acme Anvils review ${tag}`, [
    `Acme Anvils review ${tag}`,
    'Acme Anvils makes forged steel anvils for farriers.',
    'Revenue grew twelve percent to forty million dollars.',
    'The main risk is the rising price of steel.',
  ]),
  origin: 'generated',
});

const BRIEF = 'What does Acme Anvils make?\nHow did revenue change?\nWhat is the main risk?';

test('a report goes from an uploaded file to a cited report, copied, downloaded and exported', async ({ page, auth, shell, user, drive }) => {
  test.setTimeout(180_000);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  const file = acmeReview();
  await drive.uploadAndWait([file]);

  const reports = new ReportsPage(page);
  // Until report uploads (source "report") are merged, the draft is made over the drive's document.
  const docs = await reports.call<{ results: Array<{ deeplink: string; title: string | null }> }>('GET', '/documents?page=0&limit=20&source_id=needldrive');
  expect(docs.status).toBe(200);
  const deeplink = docs.json.results[0]?.deeplink;
  expect(deeplink).toBeTruthy();
  const name = `Acme research ${tag}`;
  const made = await reports.call<{ results: { id: string } }>('POST', '/ml/report/init', { report_type: 'open_research', name, files: [deeplink], brief: BRIEF });
  expect(made.status).toBe(200);
  const reportId = made.json.results.id;

  await reports.open();
  await shell.expectLive();
  await reports.expectRowStatus(name, 'DRAFT');
  await reports.row(name).getByRole('button', { name: 'Generate' }).click();
  await reports.expectRowStatus(name, 'COMPLETED', 60_000);
  await expect(reports.row(name)).toContainText('Custom research');
  await expect(reports.row(name)).toContainText(/\d+\.\d\d min/);

  await reports.openLink(name).click();
  await expect(page).toHaveURL(new RegExp(`overlay-type=report&overlay-report-id=${reportId}`));
  const overlay = reports.overlay();
  await expect(overlay).toHaveAttribute('data-width', '80');
  await expect(overlay.getByRole('heading', { name: 'Report Summary' })).toBeVisible();
  await expect(overlay.getByText(/^Time taken: \d+\.\d\d min$/)).toBeVisible();
  // A file is listed under its document's title (the PDF's own).
  const fileLink = overlay.getByRole('region', { name: 'Files Added' }).getByRole('link', { name: `Acme Anvils review ${tag}` });
  await expect(fileLink).toHaveAttribute('target', '_blank');
  await expect(overlay.getByText(/Acme Anvils makes forged steel anvils for farriers\./).first()).toBeVisible();
  // A citation opens the cited document's preview at the passage's page; the overlay stays.
  await overlay.getByRole('button', { name: /^Source 1: / }).first().click();
  await expect(page).toHaveURL(/\/preview\/apps\/[^?]+\?.*page=1.*overlay-report-id=/);
  await expect(page.getByRole('heading', { name: `Acme Anvils review ${tag}` }).first()).toBeVisible();
  await page.goBack();
  await expect(overlay.getByRole('heading', { name: 'Report Summary' })).toBeVisible();

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await overlay.getByRole('button', { name: 'Copy Report' }).click();
  await expect(page.getByText('Copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Acme Anvils makes forged steel anvils');

  const rawDownload = page.waitForEvent('download');
  await overlay.getByRole('button', { name: 'Download Raw Data' }).click();
  const raw = await rawDownload;
  const title = (await reports.call<{ results: { result: { title: string } } }>('GET', `/ml/report/${reportId}`)).json.results.result.title;
  // The app names it `{title}_response.json`; the browser swaps characters a file name cannot hold (":").
  expect(raw.suggestedFilename()).toBe(`${title.replace(/[:\\/*?"<>|]/g, '_')}_response.json`);
  const saved = JSON.parse(await readFile(await raw.path(), 'utf8')) as Record<string, unknown>;
  expect(Object.keys(saved)).toEqual(['title', 'content', 'raw_data']);
  expect(String(saved.content)).toContain('[1]');

  // Feedback: Submit waits for a change, then the rating is saved.
  const submit = overlay.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeDisabled();
  await overlay.getByRole('radio', { name: '4 stars' }).click();
  await submit.click();
  await expect(page.getByText('Feedback submitted successfully')).toBeVisible();
  await expect(submit).toBeDisabled();
  await expect(reports.row(name)).toContainText('4 of 5');

  await page.keyboard.press('Escape');
  await expect(overlay).toHaveCount(0);

  // The export answers the PDF as an attachment, and the overlay's button saves it.
  const exported = await page.evaluate(async (id) => {
    const { token } = JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { token?: string };
    const response = await fetch(`/api/ml/report/${id}/export?format=pdf`, { headers: { token: token ?? '', 'app-type': 'web' } });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, type: response.headers.get('content-type') ?? '', head: String.fromCharCode(...bytes.slice(0, 5)) };
  }, reportId);
  expect(exported.status).toBe(200);
  expect(exported.type).toContain('application/pdf');
  expect(exported.head).toBe('%PDF-');
  await reports.openLink(name).click();
  const pdfDownload = page.waitForEvent('download');
  await reports.overlay().getByRole('button', { name: 'Export PDF' }).click();
  expect((await pdfDownload).suggestedFilename()).toMatch(/\.pdf$/);
  await reports.overlay().getByRole('button', { name: 'Close overlay' }).click();

  // On a phone: the dashboard and the report fit the screen, the overlay covers it, targets are 44 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await reports.open();
  await expectNoSideScroll(page);
  await expectTouchTargets(reports.row(name).getByRole('button').or(reports.row(name).getByRole('link')));
  await reports.openLink(name).click();
  await expect(reports.overlay()).toHaveAttribute('data-full-screen', 'true');
  expect((await reports.overlay().boundingBox())?.width).toBe(390);
  await reports.overlay().getByRole('button', { name: 'Close overlay' }).click();
  await page.goto(`/report/${reportId}`);
  await expect(page.getByRole('heading', { name: 'Report Summary' })).toBeVisible();
  await expectNoSideScroll(page);
  const article = page.getByRole('article');
  await expectTouchTargets(article.getByRole('button', { name: /^(Copy Report|Download Raw Data|Submit)$/ }).or(article.getByRole('radio')));
});

test('a new report uploads its files as report files and is generated from the dialog', async ({ page, auth, shell, user }) => {
  test.setTimeout(120_000);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  const reports = new ReportsPage(page);
  await reports.open();
  const uploads = await reports.call('GET', '/upload/config?source=report&report_type=open_research');
  expect(uploads.status).toBe(200);

  await shell.expectLive();
  await reports.newReportButton().click();
  const dialog = reports.dialog();
  await dialog.getByRole('combobox', { name: 'Type' }).selectOption('open_research');
  const name = `Anvil brief ${tag}`;
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: /^Brief/ }).fill(BRIEF);
  const file = acmeReview();
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles([{ name: file.name, mimeType: 'application/pdf', buffer: file.buffer }]);
  await expect(dialog.getByTestId('report-upload')).toHaveAttribute('data-status', 'DONE', { timeout: 20_000 });
  await expect(dialog.getByTestId('source-count')).toHaveText('1 source(s) processing/added');
  // The same file again is ignored.
  const again = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose files' }).click();
  await (await again).setFiles([{ name: file.name, mimeType: 'application/pdf', buffer: file.buffer }]);
  await expect(dialog.getByTestId('report-upload')).toHaveCount(1);

  // Generate is refused (409 report_file_processing) until the file is processed: try until it is taken.
  await expect(async () => {
    await dialog.getByRole('button', { name: 'Generate' }).click();
    await expect(dialog).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  const overlay = reports.overlay();
  await expect(overlay.getByRole('heading', { name: 'Report Summary' })).toBeVisible();
  await expect(overlay.getByTestId('report-status')).toHaveText('Completed', { timeout: 60_000 });
  await expect(overlay.getByRole('region', { name: 'Files Added' }).getByRole('link')).toHaveCount(1);
  await expect(reports.row(name)).toHaveAttribute('data-status', 'COMPLETED');
});
