/**
 * The public source catalogue (/connect/public): a new user finds it from Connect, searches and
 * filters it, follows an entry by keyboard and sees it followed (after a reload too, and as My
 * Data's Exchanges tab connected), unfollows it; follows several at once; and uses it on a phone.
 * The server runs with its built-in catalogue (no NEEDL_CATALOGUE): the spec's keys, none with a
 * feed, so each says nothing is fetched for it here and no test waits for items.
 */
import { expectInReach, expectNoSideScroll, expectTouchTargets } from './support/layout';
import { expect, test } from './fixtures';

test.beforeEach(async ({ auth, shell, user }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
});

test('a new user finds the catalogue, searches it, follows an entry by keyboard and unfollows it', async ({
  page,
  catalogue,
  feeds,
}) => {
  await page.goto('/connect');
  await page.getByRole('link', { name: 'Browse public sources' }).click();
  await expect(page).toHaveURL(/\/connect\/public$/);
  await expect(catalogue.list()).toBeVisible();
  expect(await catalogue.entries().count()).toBeGreaterThan(1);
  // A new user follows nothing.
  await expect(catalogue.entries().and(page.locator('[data-following="true"]'))).toHaveCount(0);

  // The search narrows the list as it is typed, and the address keeps it.
  await catalogue.search('filings');
  await expect(catalogue.entry('NZX Filings')).toBeVisible();
  await expect(catalogue.entry('BSE Annual Reports')).toHaveCount(0);
  for (const text of await catalogue.entries().allTextContents()) expect(text).toMatch(/filings/i);
  await expect(page).toHaveURL(/\/connect\/public\?q=filings$/);

  // NZX's announcement listing is read by its connector here, and the entry says so.
  await expect(catalogue.entry('NZX Filings')).toContainText('Fetched here');

  // Follow with the keyboard: the focus stays on the button, which now unfollows.
  const followed = page.waitForResponse((r) => r.url().endsWith('/api/connect/public') && r.request().method() === 'POST' && r.ok());
  await catalogue.followButton('NZX Filings').focus();
  await page.keyboard.press('Enter');
  await followed;
  await catalogue.expectFollowing('NZX Filings', true);
  await expect(catalogue.unfollowButton('NZX Filings')).toBeFocused();

  // The server keeps it: after a reload it is followed, and the Followed filter shows it.
  await page.reload();
  await expect(catalogue.searchBox()).toHaveValue('filings');
  await catalogue.expectFollowing('NZX Filings', true);
  await catalogue.show().selectOption({ label: 'Followed' });
  await expect(catalogue.entries()).toHaveCount(1);
  await catalogue.expectFollowing('NZX Filings', true);

  // Following a public source connects My Data's Exchanges tab.
  await page.goto('/feeds/home/exchanges');
  await feeds.expectTab('exchanges', { connected: true });

  // Unfollow it: it goes, and stays gone.
  await catalogue.open('?q=nzx');
  await catalogue.setFollowing('NZX Filings', false);
  await catalogue.expectFollowing('NZX Filings', false);
  await page.reload();
  await catalogue.expectFollowing('NZX Filings', false);
  await page.goto('/feeds/home/exchanges');
  await feeds.expectTab('exchanges', { connected: false });
  await page.getByRole('link', { name: 'Browse public sources' }).click();
  await expect(page).toHaveURL(/\/connect\/public$/);
});

test('follows the selected entries at once', async ({ page, catalogue }) => {
  await catalogue.open('?q=bse');
  await catalogue.select('BSE Filings').check();
  await catalogue.select('BSE Annual Reports').check();
  await expect(catalogue.selectedBar()).toContainText('2 selected');
  await catalogue.followSelected();
  await catalogue.expectFollowing('BSE Filings', true);
  await catalogue.expectFollowing('BSE Annual Reports', true);
  await expect(catalogue.selectedBar()).toHaveCount(0);
  // Followed entries are not offered for selection.
  await expect(catalogue.select('BSE Filings')).toHaveCount(0);

  await page.reload();
  await catalogue.expectFollowing('BSE Filings', true);
  await catalogue.expectFollowing('BSE Annual Reports', true);
  await catalogue.expectFollowing('BSE Presentations', false);
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the catalogue fits the screen, its controls take a finger, and an entry is followed with a tap', async ({ page, catalogue }) => {
    await catalogue.open();
    await expectNoSideScroll(page);
    await expectTouchTargets(catalogue.searchBox().or(catalogue.show()).or(catalogue.group()));

    await catalogue.search('nzx');
    const entry = catalogue.entry('NZX Filings');
    await expectTouchTargets(catalogue.followButton('NZX Filings').or(entry.locator('.catalogue-row-select')));
    // The filters come first on a phone: the entry is a scroll away, then wholly in reach.
    await catalogue.followButton('NZX Filings').scrollIntoViewIfNeeded();
    await expectInReach(page, catalogue.followButton('NZX Filings'));
    await expectNoSideScroll(page);

    const followed = page.waitForResponse((r) => r.url().endsWith('/api/connect/public') && r.request().method() === 'POST' && r.ok());
    await catalogue.followButton('NZX Filings').tap();
    await followed;
    await catalogue.expectFollowing('NZX Filings', true);
    await expectTouchTargets(catalogue.unfollowButton('NZX Filings'));
    await expectNoSideScroll(page);

    await catalogue.setFollowing('NZX Filings', false);
    await catalogue.expectFollowing('NZX Filings', false);
  });
});
