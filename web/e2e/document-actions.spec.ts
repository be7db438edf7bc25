/**
 * A document's Summarize and Extract tables actions against the real server: the summary is
 * written in the background and opens as a PDF in a new tab; the tables found on the PDF's page
 * are shown in a dialog and downloaded as CSV.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DocumentTools } from './pages/document-tools';
import { resultsReport } from './support/table-pdf';
import { expect, test } from './fixtures';

test.describe('actions on an uploaded PDF', () => {
  let title: string;

  test.beforeEach(async ({ auth, shell, user, drive, preview }) => {
    test.setTimeout(120_000);
    const report = resultsReport(randomBytes(3).toString('hex'));
    title = report.title;
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await drive.uploadAndWait([report.file]);
    await expect(drive.card(report.file.name)).toBeVisible({ timeout: 10_000 });
    await drive.openPreview(report.file.name);
    await preview.expectShowing(title, 'apps');
  });

  test('Summarize writes a summary in the background, and View Summary opens its PDF in a new tab', async ({
    page,
    context,
  }) => {
    const tools = new DocumentTools(page);
    await tools.summaryButton('Summarize').click();
    await expect(
      page.getByRole('status').filter({
        hasText: 'Your summary is currently being generated, and we will notify you once it is complete.',
      }),
    ).toBeVisible();
    await expect(tools.summaryButton('Summarizing')).toHaveAttribute('aria-disabled', 'true');

    // The page looks again a few seconds later, and less often as the summary takes longer.
    const view = tools.summaryButton('View Summary');
    await expect(view).toBeVisible({ timeout: 60_000 });
    await expect(view).toHaveAccessibleName(`View Summary of ${title} (opens in a new tab)`);

    const fetched = page.waitForResponse((r) => /\/api\/documents\/.+\/summary\/pdf$/.test(r.url()));
    const opened = context.waitForEvent('page');
    await view.click();
    const tab = await opened;
    const file = await fetched;
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    // The same address asked again with the page's token: its bytes are a PDF.
    const token = (await file.request().headerValue('token')) ?? '';
    const again = await page.request.get(file.url(), { headers: { token } });
    expect(again.ok()).toBe(true);
    expect((await again.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The tab opens blank on the click and is given the PDF, fetched with the user's token, as a
    // blob: address; a browser that will not show it downloads it instead.
    const shown = await Promise.race([
      tab.waitForURL(/^blob:/).then(() => ({ url: tab.url() })),
      tab.waitForEvent('download').then((download) => ({ download })),
    ]);
    if ('download' in shown) {
      expect(shown.download.suggestedFilename()).toMatch(/\.pdf$/);
    } else {
      expect(shown.url).toMatch(new RegExp(`^blob:${new URL(page.url()).origin}/`));
      await expect.poll(() => tab.evaluate(() => document.contentType)).toBe('application/pdf');
    }
    await expect(view).toBeVisible();
  });

  test('Extract tables shows the table found on the page, Escape closes it, and Download CSV saves it', async ({
    page,
  }) => {
    const tools = new DocumentTools(page);
    await tools.tablesButton().click();
    await expect(tools.tablesDialog()).toBeVisible();
    const name = tools.tablesDialog().getByRole('heading', { name: 'Table 1 · page 1' });
    await expect(name).toBeVisible({ timeout: 15_000 });
    const table = tools.table('Table 1 · page 1');
    await expect(table.getByRole('columnheader')).toHaveText(['', '2024', '2023']);
    await expect(table.getByRole('row').filter({ hasText: 'Revenue' }).getByRole('cell')).toHaveText([
      'Revenue',
      '4,200',
      '3,750',
    ]);
    await expect(table.getByRole('row').filter({ hasText: 'Dividend' }).getByRole('cell')).toHaveText([
      'Dividend',
      '0.40',
      '0.35',
    ]);
    await expect(tools.tablesDialog().getByRole('heading', { name: /^Table 2 / })).toHaveCount(0);

    await page.keyboard.press('Escape');
    await expect(tools.tablesDialog()).toHaveCount(0);
    await expect(tools.tablesButton()).toBeFocused();

    // Escape is pressed before downloading: while a download runs its button is disabled, which
    // drops the focus out of the dialog, and Escape pressed then does not reach it.
    await tools.tablesButton().click();
    await expect(table.getByRole('cell', { name: '4,200' })).toBeVisible();
    const downloading = page.waitForEvent('download');
    await tools.tablesDialog().getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${title} tables.csv`);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv).toContain('Revenue,"4,200","3,750"');
    expect(csv).toContain('Dividend,0.40,0.35');
    await expect(page.getByRole('status').filter({ hasText: 'Downloaded Successfully' })).toBeVisible();

    await tools.tablesDialog().getByRole('button', { name: 'Close' }).click();
    await expect(tools.tablesDialog()).toHaveCount(0);
  });
});
