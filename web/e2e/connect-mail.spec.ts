/**
 * Connecting a mailbox over IMAP against a real Dovecot: a refused password is shown in the
 * server's words, the folders are listed to choose from, the chosen ones (and only those) are
 * read into documents in the background, Sync now brings in what arrived since, and after
 * Disconnect the documents stay.
 */
import type { Locator, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { ConnectMailPage } from './pages/connect-mail-page';
import { mailMessage, startDovecot, type Dovecot } from './support/dovecot';
import { expect, test as base } from './fixtures';

const ACCOUNT = { name: 'ada', password: 'marmalade-lantern-42' };

/** Each test gets its own Dovecot with one account, stopped after it (its log kept on failure). */
const test = base.extend<{ mailServer: Dovecot }>({
  mailServer: async ({}, use, testInfo) => {
    const server = await startDovecot([ACCOUNT]);
    try {
      await use(server);
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('dovecot.log', { body: server.log() });
      await server.stop();
    }
  },
});

test('a mailbox connected over IMAP brings in the folders chosen, syncs on demand, and keeps its mail after disconnecting', async ({
  page,
  auth,
  shell,
  user,
  mailServer,
}) => {
  test.setTimeout(180_000);
  const tag = randomBytes(3).toString('hex');
  const message = (subject: string, from: string, body: string) =>
    mailMessage({ from, to: 'ada@mail.test', subject, body, id: `${subject.replace(/\W+/g, '-')}@mail.test` });
  const inbox = { subject: `Harbour tariffs memo ${tag}`, from: 'Bea Quinn <bea.quinn@harbour.test>' };
  const report = { subject: `Quarterly freight figures ${tag}`, from: 'Reports Desk <reports@harbour.test>' };
  const spam = { subject: `You have won a cruise ${tag}`, from: 'Prize Office <win@prizes.test>' };
  const later = { subject: `Late addendum on tariffs ${tag}`, from: 'Bea Quinn <bea.quinn@harbour.test>' };
  const deliver = (folder: string, { subject, from }: { subject: string; from: string }, body: string) =>
    mailServer.deliver(ACCOUNT.name, folder, message(subject, from, body));
  deliver('INBOX', inbox, 'Tariffs at the harbour rise next month.');
  deliver('Reports', report, 'Freight volumes grew by nine percent.');
  deliver('Spam', spam, 'Click here to claim your prize.');

  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');

  await page.goto('/apps');
  const card = page.getByTestId('mail-app').filter({ has: page.getByRole('heading', { name: 'Email (IMAP)' }) });
  await expect(card).toContainText('Not connected');
  await card.getByRole('link', { name: 'Connect email' }).click();
  await expect(page).toHaveURL(/\/connect\/app\/email$/);

  const mail = new ConnectMailPage(page);
  const details = { host: '127.0.0.1', port: mailServer.port, username: ACCOUNT.name };
  await mail.fillPlain({ ...details, password: 'not-the-password' });
  await mail.checkButton().click();
  await expect(mail.formError()).toHaveText('The mail server refused the account name or password.');
  await expect(mail.folders()).toHaveCount(0);

  await mail.form().getByLabel('Password', { exact: true }).fill(ACCOUNT.password);
  await expect(mail.formError()).toHaveCount(0);
  await mail.checkButton().click();
  await expect(mail.form().getByRole('status')).toHaveText('The server has 3 folders.');
  await expect(mail.folder('INBOX')).toBeChecked();
  await expect(mail.folder('Reports')).not.toBeChecked();
  await expect(mail.folder('Spam')).not.toBeChecked();
  await mail.folder('Reports').check();
  await mail.connectButton().click();

  await expect(mail.summary()).toBeVisible();
  const toast = (text: string) => page.getByRole('status').filter({ hasText: text });
  await expect(toast('Mailbox connected. Its mail is on its way.')).toBeVisible();
  await expect(mail.fact('Server')).toHaveText(`127.0.0.1:${mailServer.port}`);
  await expect(mail.fact('Security')).toHaveText('Plain, unencrypted');
  await expect(mail.fact('Folders')).toHaveText('INBOX, Reports');
  // The first sync runs in the background; the page watches it and shows what it brought.
  await expect(mail.fact('Documents imported')).toHaveText('2', { timeout: 60_000 });
  await expect(mail.summary().getByRole('alert')).toHaveCount(0);

  await page.getByRole('link', { name: 'See your mail documents' }).click();
  await expect(page).toHaveURL(/\/apps\/email$/);
  const documents = page.getByTestId('document-card');
  const cardOf = (subject: string) => documents.filter({ hasText: subject });
  await expectListed(page, cardOf(inbox.subject));
  await expect(cardOf(inbox.subject)).toContainText(inbox.from);
  await expect(cardOf(report.subject)).toBeVisible();
  await expect(cardOf(spam.subject)).toHaveCount(0);
  await expect(documents).toHaveCount(2);

  deliver('INBOX', later, 'The new tariffs start on the first.');
  await page.getByRole('link', { name: 'Manage the mail connection' }).click();
  await expect(mail.summary()).toBeVisible();
  await mail.syncButton().click();
  await expect(toast('Checking for new mail…')).toBeVisible();
  await expect(mail.fact('Documents imported')).toHaveText('3', { timeout: 60_000 });

  await page.goto('/apps/email');
  await expectListed(page, cardOf(later.subject));
  await expect(documents).toHaveCount(3);

  await page.goto('/apps');
  await expect(card).toContainText(`Connected as ${ACCOUNT.name} · 3 documents`);
  await card.getByRole('link', { name: 'Manage email' }).click();
  await mail.disconnect();
  await expect(toast('Mailbox disconnected. Its documents stay.')).toBeVisible();
  await expect(mail.checkButton()).toBeVisible();
  await expect(mail.form().getByLabel('Server', { exact: true })).toHaveValue('');

  await page.goto('/apps/email');
  for (const { subject } of [inbox, report, later]) await expect(cardOf(subject)).toBeVisible();
  await expect(cardOf(spam.subject)).toHaveCount(0);
});

/**
 * Waits until `card` is listed, loading the page again between looks: the documents a sync
 * brings in reach the list when it is next asked for.
 */
async function expectListed(page: Page, card: Locator) {
  await expect(async () => {
    if (!(await card.isVisible())) {
      await page.reload();
      await expect(card).toBeVisible({ timeout: 3_000 });
    }
  }).toPass({ timeout: 30_000 });
}
