/**
 * What a newcomer meets in the browser: the AskNeedl panel can be put away (Escape, the Ask
 * button, its collapse control) and then stays away; its citations open beside it and their
 * popovers stay on the screen; an unknown address is a real "Page not found" inside the shell;
 * Apps and My Data's tabs that nothing fills here say so plainly and lead to the way in that works;
 * icons are drawn, not emoji, and every icon-only control has a name.
 */
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { AskNeedlPage } from './pages/ask-needl-page';
import { harbourReport } from './support/pdf';
import { expect, test } from './fixtures';

const PICTOGRAPH = /\p{Extended_Pictographic}/u;

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('the element has no box');
  return found;
}

/** Returns the buttons and links that have no name a screen reader could say. */
function namelessControls(page: Page) {
  return page
    .locator('button:visible, a[href]:visible')
    .evaluateAll((elements) =>
      elements
        .filter((el) => !(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.textContent?.trim() || el.getAttribute('title')))
        .map((el) => el.outerHTML.slice(0, 160)),
    );
}

test.describe('the AskNeedl panel', () => {
  test('is put away by the Ask button, Escape and its collapse control, and then stays away on other pages; open, the page sits beside it', async ({
    page,
    auth,
    shell,
    user,
  }) => {
    const ask = new AskNeedlPage(page);
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    await ask.openOverlay();
    const panel = await box(ask.overlay());
    const main = await box(page.locator('#main'));
    expect(main.x + main.width).toBeLessThanOrEqual(panel.x + 1);

    // The Ask button stays beside the panel and closes it again.
    await expect(ask.askButton()).toHaveAttribute('aria-expanded', 'true');
    expect((await box(ask.askButton())).x + (await box(ask.askButton())).width).toBeLessThanOrEqual(panel.x);
    await ask.askButton().click();
    await expect(ask.overlay()).toHaveCount(0);
    await expect(page).not.toHaveURL(/overlay-/);
    await expect(ask.askButton()).toHaveAttribute('aria-expanded', 'false');

    // Escape, from the question box.
    await ask.openOverlay();
    await ask.question().click();
    await page.keyboard.press('Escape');
    await expect(ask.overlay()).toHaveCount(0);

    // The collapse control in the panel.
    await ask.openOverlay();
    await ask.overlay().getByRole('button', { name: 'Hide AskNeedl' }).click();
    await expect(ask.overlay()).toHaveCount(0);

    // Put away, it does not come back on the next page.
    await shell.expectNavState('open');
    await shell.sideNav().getByRole('link', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search$/);
    await expect(ask.askButton()).toBeVisible();
    await expect(ask.overlay()).toHaveCount(0);
  });

  test.describe('on a small laptop screen', () => {
    test.use({ viewport: { width: 1024, height: 768 } });

    test('a citation popover stays whole on the screen, and the cited passage opens beside the panel; the answer’s thumbs are drawn icons', async ({
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
      const question = `What happened to imports of ${word}?`;
      await expect(async () => {
        if ((await ask.answers().count()) > 0) await ask.newChat().click();
        await ask.ask(question);
        await expect(ask.citations().first()).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 60_000, intervals: [1_000, 2_000, 3_000] });

      for (const name of ['Good answer', 'Bad answer']) {
        const thumb = ask.lastAnswer().getByRole('button', { name });
        await expect(thumb.locator('svg')).toBeVisible();
        expect(await thumb.innerText()).not.toMatch(PICTOGRAPH);
      }

      const citation = ask.citations().first();
      await citation.hover();
      await expect(ask.popover()).toContainText(word);
      const viewport = page.viewportSize()!;
      const popover = await box(ask.popover());
      expect(popover.x).toBeGreaterThanOrEqual(0);
      expect(popover.y).toBeGreaterThanOrEqual(0);
      expect(popover.x + popover.width).toBeLessThanOrEqual(viewport.width);
      expect(popover.y + popover.height).toBeLessThanOrEqual(viewport.height);
      // Nothing clips it: each corner of the popover is the popover itself.
      const whole = await ask.popover().evaluate((el) => {
        const r = el.getBoundingClientRect();
        const corners = [
          [r.left + 2, r.top + 2],
          [r.right - 2, r.top + 2],
          [r.left + 2, r.bottom - 2],
          [r.right - 2, r.bottom - 2],
        ];
        return corners.every(([x, y]) => el.contains(document.elementFromPoint(x, y)));
      });
      expect(whole).toBe(true);

      await citation.click();
      await preview.expectShowing(title, 'apps');
      await preview.expectPdfDrawn();
      await expect(preview.highlight()).toBeVisible();
      await expect(ask.overlay()).toBeVisible();
      const highlight = await box(preview.highlight());
      const panel = await box(ask.overlay());
      expect(highlight.x + highlight.width).toBeLessThanOrEqual(panel.x);
    });
  });
});

test.describe('dead ends', () => {
  test('an unknown address is a real "Page not found" in the shell, with the navigation and a way home', async ({ page, auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(shell.title()).toHaveText('Page not found');
    await expect(page.getByRole('heading', { name: 'There is no page at this address' })).toBeVisible();
    await expect(page.getByText(/coming soon/i)).toHaveCount(0);
    await expect(shell.sideNav()).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await shell.expectSignedInAt('/feeds/home');

    // An app the spec names that cannot be connected here says so, and what to do instead.
    await page.goto('/apps/gmail');
    await expect(page.getByRole('heading', { name: 'Gmail is not connected on this instance' })).toBeVisible();
    await expect(page.getByText(/coming soon/i)).toHaveCount(0);
  });

  test('Apps lists what works and what cannot be connected, and an empty My Data tab leads to the way in', async ({ page, auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    await shell.sideNav().getByRole('link', { name: 'Apps' }).click();
    await expect(page).toHaveURL(/\/apps$/);
    await expect(shell.title()).toHaveText('Apps');
    const working = page.getByRole('list', { name: 'Apps you can use' });
    await expect(working).toContainText('0 documents');
    const notConnected = page.getByRole('list', { name: 'Apps that cannot be connected' });
    await expect(notConnected.getByRole('heading', { name: 'WhatsApp' })).toBeVisible();
    await expect(notConnected).toContainText('Chats: not connected');
    await expect(page.getByText(/coming soon/i)).toHaveCount(0);
    await working.getByRole('link', { name: 'Open Needl Drive' }).click();
    await expect(page).toHaveURL(/\/apps\/needldrive$/);
    await expect(page.getByRole('button', { name: 'Upload File(s)' })).toBeVisible();

    // My Data's Chats tab: not connected, and the link goes to the drive.
    await page.goto('/feeds/home/chats');
    await expect(page.getByRole('heading', { name: 'Chat apps are not connected on this instance' })).toBeVisible();
    await expect(page.getByText(/Export the chat/)).toBeVisible();
    await page.getByRole('link', { name: 'Upload to Needl Drive' }).click();
    await expect(page).toHaveURL(/\/apps\/needldrive$/);
  });

  test('settings, group creation and the full-page preview keep the navigation', async ({ page, auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    for (const path of ['/settings/user-settings', '/settings/channels/create%20group', '/preview/feeds/no-such-document?source=rss']) {
      await page.goto(path);
      await expect(shell.title()).toBeVisible();
      await expect(shell.sideNav(), path).toBeVisible();
      await expect(shell.navToggle(), path).toBeVisible();
    }
  });

  test.describe('at phone width', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the not-found and apps pages fit the screen and the navigation opens from the header', async ({ page, auth, shell, user }) => {
      await auth.signUp(user);
      await shell.expectSignedInAt('/feeds/home');
      await page.goto('/apps');
      await expect(page.getByRole('list', { name: 'Apps that cannot be connected' }).getByRole('heading', { name: 'Telegram' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.goto('/no/such/page');
      await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shell.navToggle().click();
      await expect(shell.sideNav().getByRole('link', { name: 'My Data' })).toBeVisible();
    });
  });
});

test('icons are drawn, not emoji, and every button and link has a name', async ({ page, auth, shell, user }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  for (const path of ['/feeds/home', '/search', '/channels', '/needlbox/bookmarks/all', '/settings/user-settings']) {
    await page.goto(path);
    await expect(shell.title()).toBeVisible();
    const bell = page.getByTestId('notification-bell');
    await expect(bell.locator('svg')).toBeVisible();
    await expect(bell).toHaveAccessibleName(/^Notifications/);
    expect(await page.locator('body').innerText(), path).not.toMatch(PICTOGRAPH);
    expect(await namelessControls(page), path).toEqual([]);
  }
});
