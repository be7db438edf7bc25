/**
 * AskNeedl against the real server: a PDF uploaded to the drive is asked about from the Ask
 * overlay; the answer streams in with a numbered citation whose popover quotes the passage and
 * which opens the PDF's preview at that passage; the conversation is then found on the history
 * page after a reload and opens again from there.
 */
import { randomBytes } from 'node:crypto';
import { AskNeedlPage } from './pages/ask-needl-page';
import { harbourReport } from './support/pdf';
import { expect, test } from './fixtures';

test('a question about an uploaded PDF is answered with a citation that opens the preview, and is kept in history', async ({
  page,
  auth,
  shell,
  user,
  drive,
  preview,
}) => {
  test.setTimeout(150_000);
  const ask = new AskNeedlPage(page);
  // A made-up word only this file holds, so the answer can only come from it.
  const { file, word, title } = harbourReport(randomBytes(3).toString('hex'));

  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await drive.uploadAndWait([file]);

  await page.goto('/feeds/home');
  await ask.openOverlay();
  await expect(ask.overlay().getByText('AskNeedl can make mistakes. Double-check important info.')).toBeVisible();

  // The index takes a moment after the upload completes: ask again until the answer cites the file.
  const question = `What happened to imports of ${word}?`;
  await expect(async () => {
    if ((await ask.answers().count()) > 0) await ask.newChat().click();
    await ask.ask(question);
    await expect(ask.citations().first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000, 3_000] });

  await expect(ask.lastAnswer()).toContainText(/forty percent/i);
  const citation = ask.citations().first();
  await citation.hover();
  await expect(ask.popover()).toContainText(title);
  await expect(ask.popover()).toContainText(word);

  await citation.click();
  await preview.expectShowing(title, 'apps');
  await expect(page).toHaveURL(/[?&]access_key=/);
  await expect(page).toHaveURL(/[?&]page=1(&|$)/);
  await expect(page).toHaveURL(/[?&]bbox=[\d.]+(%2C|,)/);
  await preview.expectPdfDrawn();
  await expect(preview.highlight()).toBeVisible();
  // The overlay stays open beside the preview.
  await expect(ask.overlay()).toBeVisible();

  await page.goto('/ask-needl/history');
  const session = ask.sessions().filter({ hasText: question }).first();
  // Settled first: the app renews its token on load, and a reload in the middle would lose it.
  await expect(session).toBeVisible({ timeout: 10_000 });
  await page.reload();
  await expect(session).toBeVisible({ timeout: 10_000 });
  await session.click();
  await expect(page).toHaveURL(/[?&]sessionId=/);
  await expect(page.getByTestId('ask-question').filter({ hasText: question }).first()).toBeVisible();
  await expect(ask.lastAnswer()).toContainText(/forty percent/i);
  await expect(ask.citations().first()).toBeVisible();
});
