/**
 * Phones and tablets (issue 18): the main journeys at 390×844 and 820×1180. Below laptop width
 * the navigation is a drawer over the page (menu button, scrim, Escape, focus back to the button),
 * the page takes the screen's width and never scrolls sideways, the Ask button is on the screen and
 * opens the assistant, an overlay covers the screen, and the controls used are 44 px or more.
 */
import { randomBytes } from 'node:crypto';
import { AskNeedlPage } from './pages/ask-needl-page';
import { channelPath, GroupSettingsPage } from './pages/channels-pages';
import { expectFullWidthContent, expectInReach, expectNoSideScroll, expectTouchTargets } from './support/layout';
import { writePdf } from './support/pdf';
import { expect, test } from './fixtures';

const SCREENS = [
  { name: 'a phone', viewport: { width: 390, height: 844 }, isMobile: true },
  { name: 'a tablet', viewport: { width: 820, height: 1180 }, isMobile: false },
] as const;

for (const screen of SCREENS) {
  test.describe(`on ${screen.name} (${screen.viewport.width}×${screen.viewport.height})`, () => {
    test.use({ viewport: screen.viewport, isMobile: screen.isMobile, hasTouch: true });

    test('sign up, the drawer, My Data with an upload, search, AskNeedl and a group fit the screen and are in reach', async ({
      page,
      auth,
      shell,
      user,
      drive,
      search,
    }) => {
      test.setTimeout(90_000);
      const tag = randomBytes(3).toString('hex');
      const word = `driftwood${tag}`;
      const title = `Tide tables ${tag}`;
      const file = { name: `tides-${tag}.pdf`, buffer: writePdf(title, [title, `The ${word} survey closed the north quay.`]), origin: 'generated' };
      const ask = new AskNeedlPage(page);

      // Sign up: the form fits and its button is big enough for a finger.
      await page.goto('/auth/platform-access');
      await expectNoSideScroll(page);
      await expectTouchTargets(page.getByRole('button', { name: 'Create account' }));
      await auth.signUp(user);
      await shell.expectSignedInAt('/feeds/home');

      // The navigation is a shut drawer: the page has the screen's width; the menu button opens it.
      await expectNoSideScroll(page);
      await expectFullWidthContent(page);
      await shell.expectDrawerClosed();
      await expectInReach(page, shell.navToggle());
      const header = page.getByRole('banner');
      await expectTouchTargets(header.getByRole('button').or(header.locator('.app-header-actions').getByRole('link')));

      // Open, it lies over the page (which keeps its width and is out of reach) and takes focus.
      await shell.openDrawer();
      await expectFullWidthContent(page);
      await expect(page.locator('.shell-main')).toHaveAttribute('inert', '');
      await expect(shell.drawerClose()).toBeFocused();
      await expectTouchTargets(shell.sideNav().getByRole('link', { name: /^(My Data|Search|Groups|Notebooks)$/ }).or(shell.drawerClose()));
      await expectNoSideScroll(page);
      // Escape closes it, and focus goes back to the menu button.
      await page.keyboard.press('Escape');
      await shell.expectDrawerClosed();
      await expect(shell.navToggle()).toBeFocused();
      // A tap on the page beside it closes it too, and so does its close button.
      await shell.openDrawer();
      await shell.scrim().tap({ position: { x: screen.viewport.width - 20, y: screen.viewport.height / 2 } });
      await shell.expectDrawerClosed();
      await shell.openDrawer();
      await shell.drawerClose().tap();
      await shell.expectDrawerClosed();

      // My Data: upload a file from the drive, then go back through the drawer; its card fits.
      await drive.open();
      await expectTouchTargets(drive.uploadButton());
      await drive.uploadFiles([file]);
      await drive.expectUploadStatus(file.name, 'COMPLETED', 60_000);
      await expectNoSideScroll(page);
      await shell.openDrawer();
      await shell.sideNav().getByRole('link', { name: 'My Data' }).tap();
      await expect(page).toHaveURL(/\/feeds\/home(\/drives)?$/);
      await shell.expectDrawerClosed();
      const card = drive.card(file.name);
      await expect(card).toBeVisible({ timeout: 10_000 });
      const cardBox = (await card.boundingBox())!;
      expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(screen.viewport.width);
      await expectNoSideScroll(page);

      // The Ask button is on the screen, not covered, and opens the assistant's full page.
      await expectInReach(page, ask.askButton());
      await expectTouchTargets(ask.askButton());
      await ask.askButton().tap();
      await expect(page).toHaveURL(/\/ask-needl\/full/);
      await expect(ask.question()).toBeVisible();
      await expectInReach(page, ask.question());
      await expectNoSideScroll(page);

      // An overlay (here the assistant's) covers the screen below laptop width.
      await page.goto('/feeds/home?overlay-type=ask-needl');
      await expect(ask.overlay()).toHaveAttribute('data-full-screen', 'true');
      const overlayBox = (await ask.overlay().boundingBox())!;
      expect(overlayBox.x).toBe(0);
      expect(overlayBox.width).toBe(screen.viewport.width);
      // Its body (loaded on first use) is in: a tap while the panel's content is swapped in can be
      // lost by the browser, and the question box is what the panel is for.
      const overlayQuestion = ask.overlay().getByRole('textbox', { name: 'Your question' });
      await expect(overlayQuestion).toBeVisible();
      await expectInReach(page, overlayQuestion);
      const hideOverlay = ask.overlay().getByRole('button', { name: 'Hide AskNeedl' });
      await expectTouchTargets(hideOverlay);
      await hideOverlay.tap();
      await expect(ask.overlay()).toHaveCount(0);

      // Search from the header: the box opens in the header's row, and the results fit.
      await search.headerButton().tap();
      await expect(search.headerInput()).toBeFocused();
      await expectNoSideScroll(page);
      await expectInReach(page, search.headerInput());
      await search.headerInput().fill(word);
      await search.headerInput().press('Enter');
      await expect(page).toHaveURL(/\/search(\/[^?]*)?\?/);
      await search.expectResults([title]);
      await expectNoSideScroll(page);
      await expectTouchTargets(search.box());

      // A group: made in settings, opened from the drawer.
      const group = `Quay ${tag}`;
      const settings = new GroupSettingsPage(page);
      await settings.openCreate();
      await expectNoSideScroll(page);
      await settings.nameField().fill(group);
      const channelId = await settings.create();
      await shell.openDrawer();
      await shell.sideNav().getByRole('link', { name: group }).tap();
      await expect(page).toHaveURL(new RegExp(`${channelPath(channelId)}$`));
      await shell.expectDrawerClosed();
      await expect(shell.title()).toHaveText(group);
      await expectNoSideScroll(page);
      await expectFullWidthContent(page);
      await expectTouchTargets(page.getByRole('navigation', { name: 'Group views' }).getByRole('link'));

      // Settings: the tabs stay in their own row, and the page does not widen.
      await page.getByRole('banner').getByRole('link', { name: 'Settings' }).tap();
      await expect(page).toHaveURL(/\/settings\/user-settings$/);
      await expectNoSideScroll(page);
      await expectTouchTargets(page.getByRole('navigation', { name: 'Settings' }).getByRole('link'));
    });
  });
}
