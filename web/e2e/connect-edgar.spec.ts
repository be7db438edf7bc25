/**
 * Following a US company's SEC filings against the local EDGAR Playwright starts (testkit's
 * `fake-edgar`: Apple with a 10-K and an 8-K with its press release, Microsoft with a 10-Q): the
 * company found by typing, a follow narrowed to a form, its filings arriving in My Data's
 * Exchanges tab titled as a reader expects, and what a refused company says.
 */
import { expect, test } from './fixtures';

test('a company picked by name brings its annual report into Exchanges', async ({ page, auth, shell, user, feeds }) => {
  test.setTimeout(90_000);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');

  await page.goto('/feeds/home/exchanges');
  await page.getByRole('link', { name: "Follow a US company's SEC filings" }).click();
  await expect(page).toHaveURL(/\/connect\/edgar$/);
  await expect(page.getByRole('heading', { name: 'No companies followed yet' })).toBeVisible();

  const company = page.getByRole('combobox', { name: 'Company' });
  await company.fill('app');
  const option = page.getByRole('option', { name: /Apple Inc\. · AAPL · CIK 320193/ });
  await expect(option).toBeVisible();
  await company.press('ArrowDown');
  await company.press('Enter');
  await expect(page.getByRole('listbox', { name: 'Matching companies' })).toBeHidden();
  await page.getByRole('checkbox', { name: /^10-K/ }).check();
  await page.getByRole('button', { name: 'Follow', exact: true }).click();

  const row = page.getByTestId('edgar-company').filter({ hasText: 'Apple Inc.' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('AAPL');
  await expect(row).toContainText('10-K');
  await expect(row).not.toContainText('0000320193');
  await expect(row).toContainText(/1 filing/, { timeout: 30_000 });

  await page.goto('/feeds/home/exchanges');
  await feeds.expectDocument('Apple Inc. — 10-K — FY2024', 15_000);
  // Only the form asked for: the 8-K stays out.
  await expect(page.getByText('Apple Inc. — 8-K', { exact: false })).toHaveCount(0);

  await page.goto('/connect/edgar');
  await row.getByRole('button', { name: 'Unfollow Apple Inc.' }).click();
  await expect(page.getByRole('heading', { name: 'No companies followed yet' })).toBeVisible();
});

test('a company EDGAR does not know is refused with a reason and nothing is followed', async ({ page, auth, shell, user }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await page.goto('/connect/edgar');
  const company = page.getByRole('combobox', { name: 'Company' });
  await company.fill('ZZZQX');
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: /No company on SEC EDGAR matches/i })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No companies followed yet' })).toBeVisible();
});
