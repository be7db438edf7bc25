/**
 * Portfolios against the real server: a user creates a portfolio with two holdings (typed row
 * after row with Enter), is refused an invalid ISIN in the browser with the row named, edits the
 * portfolio (a row removed, a quantity changed) and deletes it after confirming. The server
 * refuses the same ISIN with the same sentence when the browser is bypassed. On a phone the form
 * is a card per holding and the page never scrolls sideways.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectNoSideScroll, expectTouchTargets } from './support/layout';
import { expect, test } from './fixtures';

const APPLE = { company: 'Apple Inc.', isin: 'US0378331005', quantity: '120.5' };
const BAYER = { company: 'Bayer AG', isin: 'DE000BAY0017', quantity: '40' };
const BAD_ISIN = 'US0378331006';
const BAD_ISIN_MESSAGE = `Row 2: ${BAD_ISIN} is not a valid ISIN (the check digit does not match).`;

/** Returns the token the page keeps with its session, to call the API as this user. */
const sessionToken = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { token?: string }).token ?? '');

/** /settings/portfolios and its form (/settings/portfolios/create-portfolio, `?id=` to edit). */
class PortfoliosPages {
  constructor(private readonly page: Page) {}

  readonly list = () => this.page.getByRole('list', { name: 'Your portfolios' });
  readonly item = (name: string) => this.page.getByRole('listitem', { name, exact: true });
  readonly nameField = () => this.page.getByRole('textbox', { name: 'Name', exact: true });
  readonly cell = (field: 'Company' | 'ISIN' | 'Quantity', row: number) =>
    this.page.getByRole('textbox', { name: `${field}, row ${row}`, exact: true });
  readonly deleteDialog = (name: string) => this.page.getByRole('dialog', { name: `Delete ${name}?` });
  readonly toast = (text: string) => this.page.getByRole('status').filter({ hasText: text });

  async open() {
    await this.page.goto('/settings/portfolios');
    await expect(this.page.getByRole('heading', { name: 'Portfolios', level: 2, exact: true })).toBeVisible();
  }

  /** Types a holding into row `row` (from 1), ending with Enter, which goes to the next row. */
  async typeRow(row: number, holding: { company: string; isin: string; quantity: string }) {
    await this.cell('Company', row).fill(holding.company);
    await this.cell('ISIN', row).fill(holding.isin);
    await this.cell('Quantity', row).fill(holding.quantity);
    await this.cell('Quantity', row).press('Enter');
    await expect(this.cell('Company', row + 1)).toBeFocused();
  }

  /** Clicks the form's submit button (`Create portfolio` or `Save changes`) and waits for the server's yes. */
  async save(label: 'Create portfolio' | 'Save changes') {
    const saved = this.page.waitForResponse(
      (r) => new URL(r.url()).pathname.startsWith('/api/portfolios') && ['POST', 'PUT'].includes(r.request().method()) && r.ok(),
    );
    await this.page.getByRole('button', { name: label, exact: true }).click();
    await saved;
    await expect(this.page).toHaveURL(/\/settings\/portfolios$/);
  }
}

test.describe('portfolios', () => {
  test('a user creates a portfolio with two holdings, is refused an invalid ISIN, edits it and deletes it', async ({
    page,
    auth,
    shell,
    user,
  }) => {
    const portfolios = new PortfoliosPages(page);
    const name = `Core ${randomBytes(3).toString('hex')}`;
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    // No portfolio yet: the empty state leads to the form.
    await portfolios.open();
    await expect(page.getByRole('heading', { name: 'No portfolios yet' })).toBeVisible();
    await page.getByRole('link', { name: 'Create portfolio' }).click();
    await expect(page).toHaveURL(/\/settings\/portfolios\/create-portfolio$/);
    await expect(portfolios.nameField()).toBeFocused();

    // An invalid ISIN is refused in the browser, beside its row, and nothing is sent.
    const sent: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/portfolios') && r.method() !== 'GET') sent.push(r.method());
    });
    await portfolios.nameField().fill(name);
    await portfolios.typeRow(1, APPLE);
    await portfolios.typeRow(2, { ...BAYER, isin: BAD_ISIN });
    await page.getByRole('button', { name: 'Create portfolio', exact: true }).click();
    await expect(portfolios.cell('ISIN', 2)).toHaveAttribute('aria-invalid', 'true');
    await expect(portfolios.cell('ISIN', 2)).toHaveAccessibleDescription(BAD_ISIN_MESSAGE);
    await expect(portfolios.cell('ISIN', 2)).toBeFocused();
    await expect(page.getByRole('alert').filter({ hasText: 'One thing to fix before saving' })).toBeVisible();
    expect(sent).toEqual([]);

    // Put right (lowercase is fine: it is upper-cased), it is saved; the blank third row is not.
    await portfolios.cell('ISIN', 2).fill(BAYER.isin.toLowerCase());
    await expect(portfolios.cell('ISIN', 2)).not.toHaveAttribute('aria-invalid');
    await portfolios.save('Create portfolio');
    await expect(portfolios.toast('Portfolio created')).toBeVisible();
    await expect(portfolios.item(name)).toContainText('2 holdings');
    await expect(portfolios.item(name)).toContainText(/updated (just now|\d+ mins? ago)/);

    // Opened again, it has what was typed; a row removed and a quantity changed are saved.
    await portfolios.item(name).getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/portfolios\/create-portfolio\?id=/);
    await expect(page.getByRole('heading', { name: 'Edit portfolio' })).toBeVisible();
    await expect(portfolios.nameField()).toHaveValue(name);
    await expect(portfolios.cell('ISIN', 2)).toHaveValue(BAYER.isin);
    await expect(portfolios.cell('Quantity', 1)).toHaveValue(APPLE.quantity);
    await page.getByRole('button', { name: 'Remove row 1' }).click();
    await expect(portfolios.cell('Company', 1)).toHaveValue(BAYER.company);
    await expect(portfolios.cell('Company', 1)).toBeFocused();
    await portfolios.cell('Quantity', 1).fill('55.25');
    await portfolios.save('Save changes');
    await expect(portfolios.toast('Portfolio saved')).toBeVisible();
    await expect(portfolios.item(name)).toContainText('1 holding');
    await page.reload();
    await portfolios.item(name).getByRole('link', { name: `Edit ${name}` }).click();
    await expect(portfolios.cell('Quantity', 1)).toHaveValue('55.25');
    await expect(portfolios.cell('Company', 2)).toHaveCount(0);

    // Deleted after confirming (Cancel first leaves it be).
    await portfolios.open();
    await portfolios.item(name).getByRole('button', { name: `Delete ${name}` }).click();
    await expect(portfolios.deleteDialog(name)).toContainText('This cannot be undone.');
    await portfolios.deleteDialog(name).getByRole('button', { name: 'Cancel' }).click();
    await expect(portfolios.deleteDialog(name)).toBeHidden();
    await expect(portfolios.item(name)).toBeVisible();
    await portfolios.item(name).getByRole('button', { name: `Delete ${name}` }).click();
    await portfolios.deleteDialog(name).getByRole('button', { name: 'Delete portfolio' }).click();
    await expect(portfolios.toast('Portfolio deleted')).toBeVisible();
    await expect(portfolios.item(name)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'No portfolios yet' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'No portfolios yet' })).toBeVisible();
  });

  test('the server refuses an invalid ISIN with the same sentence, naming the row', async ({ page, request, auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    const token = await sessionToken(page);
    const answer = await request.post('/api/portfolios', {
      headers: { token, 'app-type': 'web' },
      data: {
        name: 'Bypassing the browser',
        holdings: [
          { company: APPLE.company, isin: APPLE.isin, quantity: 1 },
          { company: BAYER.company, isin: BAD_ISIN, quantity: 2 },
        ],
      },
    });
    expect(answer.status()).toBe(422);
    expect(await answer.json()).toMatchObject({ code: 'invalid_isin', message: BAD_ISIN_MESSAGE });
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the form is a card per holding, in reach, and the page never scrolls sideways', async ({ page, auth, shell, user }) => {
      const portfolios = new PortfoliosPages(page);
      await auth.signUp(user);
      await shell.expectSignedInAt('/feeds/home');
      await page.goto('/settings/portfolios/create-portfolio');
      await portfolios.nameField().fill('On the go');
      await portfolios.typeRow(1, APPLE);
      // Each field is labelled in its card (on wider screens the column heads say it).
      const label = page.locator('label').filter({ hasText: /^Company/ }).first();
      expect((await label.boundingBox())?.width ?? 0).toBeGreaterThan(40);
      await expectNoSideScroll(page);
      await expectTouchTargets(page.getByRole('button', { name: /^Remove row/ }));
      await expectTouchTargets(page.getByRole('textbox', { name: /, row 1$/ }));
      await portfolios.save('Create portfolio');
      await expect(portfolios.item('On the go')).toBeVisible();
      await expectNoSideScroll(page);
    });
  });
});
