/**
 * The auditor's view (issue 21): an administrator reads the events their own actions made, newest
 * first, filters them, opens an aggregate's history and travels back in it, sees the hash chain
 * intact and signs a checkpoint; a member is refused; and the page fits a phone.
 */
import AxeBuilder from '@axe-core/playwright';
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AuditPage } from './pages/audit-page';
import type { AuthPages } from './pages/auth-pages';
import { expectNoSideScroll, expectTouchTargets } from './support/layout';
import { ADMIN } from './support/users';

/** Signs the instance's administrator in and waits until the app has taken them in. */
async function signInAsAdmin(page: Page, auth: AuthPages) {
  await auth.signIn(ADMIN);
  await expect(page).not.toHaveURL(/\/auth\/signin/, { timeout: 10_000 });
}

/** Returns the signed-in user's id, as the page keeps it with the session. */
const sessionUserId = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { user?: { id?: string } }).user?.id ?? '');

/** Renames the signed-in user's notebook `from` to `to` through the API, with the page's token. */
async function renameNotebook(page: Page, from: string, to: string) {
  const status = await page.evaluate(
    async ([from, to]) => {
      const { token } = JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { token?: string };
      const headers = { token: token ?? '', 'app-type': 'web', 'x-request-origin': window.location.pathname, 'content-type': 'application/json' };
      const shelf = (await (await fetch('/api/notebook/list', { headers })).json()) as {
        results: Array<{ notebook_id: string; notebook_name: string }>;
      };
      const notebook = shelf.results.find((n) => n.notebook_name === from);
      if (!notebook) return 404;
      const renamed = await fetch(`/api/notebook/${encodeURIComponent(notebook.notebook_id)}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ name: to }),
      });
      return renamed.status;
    },
    [from, to] as const,
  );
  expect(status).toBe(200);
}

test.describe('the audit log', () => {
  test('an administrator finds their own actions newest first, filters them, travels back in a history and checkpoints the chain', async ({
    page,
    auth,
    notebooks,
  }) => {
    test.setTimeout(60_000);
    const tag = randomBytes(3).toString('hex');
    const first = `Ledger ${tag}`;
    const second = `Almanac ${tag}`;
    const audit = new AuditPage(page);

    // The administrator makes a notebook in the app and renames it: two events on their shelf.
    await signInAsAdmin(page, auth);
    await notebooks.open();
    await notebooks.createNotebook(first);
    await renameNotebook(page, first, second);

    // The settings tabs lead administrators to the audit log.
    await page.goto('/settings/user-settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(/\/settings\/audit$/);

    // The chain over the log is intact.
    await expect(audit.chain().locator('.audit-badge')).toHaveText('Intact');

    // The shelf's events come newest first: the rename above the notebook's creation.
    await audit.filter({ 'Aggregate type': 'notebook_shelf', 'User id': await sessionUserId(page) });
    await expect(page).toHaveURL(/[?&]aggregate_type=notebook_shelf/);
    const [renaming, creating] = [await audit.findRow(second), await audit.findRow(first)];
    await expect(renaming).toContainText('Notebook renamed');
    await expect(creating).toContainText('Notebook created');
    expect((await renaming.boundingBox())!.y).toBeLessThan((await creating.boundingBox())!.y);

    // Filtered to notebook renames, the rename is listed in words, by the administrator.
    await audit.filter({ 'Aggregate type': '', 'Event type': 'NotebookRenamed' });
    await expect(page).toHaveURL(/[?&]event_type=NotebookRenamed/);
    const renamed = await audit.findRow(second);
    await expect(renamed).toContainText('Notebook renamed');
    await expect(renamed).toContainText(ADMIN.username);
    await expect(audit.rows().filter({ hasText: 'Notebook created' })).toHaveCount(0);

    // Its detail shows where it came from and the payload; the history link opens the shelf's history at it.
    const detail = await audit.openDetail(second);
    await expect(detail.getByText('/notebooks', { exact: true })).toBeVisible();
    await expect(detail.getByLabel('Payload')).toContainText(`"from": "${first}"`);
    // The log with a detail open has no serious or critical accessibility problem.
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await detail.getByRole('link', { name: /^History of this / }).click();
    await expect(page).toHaveURL(/\/settings\/audit\/history\?type=notebook_shelf&/);
    await expect(audit.state()).toContainText(second);

    // Travelling back to the notebook's creation shows it under its first name.
    await audit.historyEvents().getByRole('button', { name: new RegExp(`Notebook created.*${first}`) }).click();
    await expect(page).toHaveURL(/&at=\d+-\d+$/);
    await expect(audit.state()).toContainText(first);
    await expect(audit.state()).not.toContainText(second);
    await expect(page.getByRole('heading', { name: /led to it$/ })).toBeVisible();

    // Back on the log, a checkpoint is signed and listed, and the chain is still intact when verified again.
    await audit.open();
    await audit.chain().getByRole('button', { name: 'Create checkpoint' }).click();
    await expect(audit.chain().getByText(/^Checkpoint created at position \d+\.$/)).toBeVisible();
    await expect(audit.checkpoints().getByRole('row')).not.toHaveCount(0);
    await audit.chain().getByRole('button', { name: 'Verify now' }).click();
    await expect(audit.chain().locator('.audit-badge')).toHaveText('Intact');
  });

  test('a member is not shown the audit log and is told they may not read it', async ({ page, auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await page.goto('/settings/user-settings');
    await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' })).toHaveCount(0);
    await page.goto('/settings/audit');
    await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
    await expect(page.getByRole('table', { name: /Audit events/ })).toHaveCount(0);
    const answer = await page.evaluate(async () => {
      const { token } = JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { token?: string };
      return (await fetch('/api/audit/events', { headers: { token: token ?? '', 'app-type': 'web' } })).status;
    });
    expect(answer).toBe(403);
  });

  test.describe('on a phone (390×844)', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the log fits: filters fold into a disclosure, rows stack, and an event opens', async ({ page, auth, notebooks }) => {
      const name = `Pocket ${randomBytes(3).toString('hex')}`;
      const audit = new AuditPage(page);
      await signInAsAdmin(page, auth);
      await notebooks.open();
      await notebooks.createNotebook(name);

      await audit.open();
      await expectNoSideScroll(page);
      await expect(page.getByLabel('Event type', { exact: true })).toBeHidden();
      await expect(audit.filtersToggle()).toHaveAttribute('aria-expanded', 'false');
      await expectTouchTargets(audit.filtersToggle());
      await audit.filter({ 'Event type': 'NotebookCreated', 'User id': await sessionUserId(page) });
      await expect(audit.filtersToggle()).toHaveText('Filters (2)');

      const row = await audit.findRow(name);
      // Stacked: the row's cells sit one under another, within the screen.
      const cells = row.locator('td');
      const [when, who] = [await cells.nth(0).boundingBox(), await cells.nth(1).boundingBox()];
      expect(who!.y).toBeGreaterThan(when!.y);
      await expectTouchTargets(row.getByRole('button', { name: /^Details:/ }));
      const detail = await audit.openDetail(name);
      await expect(detail.getByLabel('Payload')).toBeVisible();
      await expectNoSideScroll(page);
      await expectTouchTargets(audit.chain().getByRole('button', { name: /^(Verify now|Create checkpoint)$/ }));
    });
  });
});
