/**
 * Erasing an account against the real server. A user erases their own from User Settings with
 * their password (a wrong one is refused under the field first): every session of theirs ends,
 * sign-in says the account was erased, and its password no longer signs in. An administrator
 * erases a member from the Users page (never their own row): the member's comment stays in its
 * thread, marked as removed and by "Erased user", and the member cannot sign in again. On a phone
 * the section and its dialog fit the screen and their controls are in reach.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { AdminUsersPage } from './pages/admin-users-page';
import { AuthPages } from './pages/auth-pages';
import { channelPath, ChannelCard, GroupSettingsPage } from './pages/channels-pages';
import { DrivePage } from './pages/drive-page';
import { expectInReach, expectNoSideScroll, expectTouchTargets } from './support/layout';
import { generatedPdf } from './support/pdf';
import { ADMIN } from './support/users';
import { expect, test } from './fixtures';

/** What the server shows, after erasure, in place of an erased author's name and comment. */
const ERASED_NAME = 'Erased user';
const ERASED_COMMENT = "This comment was removed when its author's account was erased.";

/** Returns the token the page keeps with its session, to try it against the API afterwards. */
const sessionToken = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { token?: string }).token ?? '');

test.describe('erasing an account', () => {
  test('a user erases their own account with their password; sign-in says so, and it signs in no more', async ({
    page,
    request,
    auth,
    shell,
    settings,
    user,
  }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    const token = await sessionToken(page);
    await settings.open();
    await expect(settings.eraseSection()).toContainText('This cannot be undone.');

    // The dialog takes focus to the password; Escape closes it and nothing happens.
    await settings.openEraseAccount();
    await expect(settings.erasePassword()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(settings.eraseDialog()).toBeHidden();

    // A wrong password is refused under the field, and the account stays.
    await settings.openEraseAccount();
    await settings.confirmEraseAccount('not-my-password');
    await expect(await settings.erasePasswordError()).toHaveText('the current password is not right');
    await expect(settings.eraseDialog()).toBeVisible();

    // The right one erases it: sign-in, with a notice.
    await settings.confirmEraseAccount(user.password);
    await auth.expectOnSignIn();
    await expect(page.getByRole('status').filter({ hasText: 'Your account was erased' })).toBeVisible();

    // The session's token no longer works, and the password no longer signs in.
    const answer = await request.get('/api/user', { headers: { token, 'app-type': 'web' } });
    expect(answer.status()).toBe(401);
    await auth.signIn(user, { open: false });
    await expect(auth.serverError()).toHaveText('invalid email or password');
    await expect(page).toHaveURL(/\/auth\/signin$/);

    // The notice was for that visit only.
    await page.reload();
    await auth.expectOnSignIn();
    await expect(page.getByRole('status').filter({ hasText: 'Your account was erased' })).toHaveCount(0);
  });

  test("an administrator erases a member from the Users page; the member's comment stays, marked as removed", async ({
    page,
    browser,
    auth,
    shell,
    user,
  }) => {
    test.setTimeout(150_000);
    const id = randomBytes(3).toString('hex');
    const pdf = generatedPdf(`erasure-${id}.pdf`, id);
    const group = `Erasure ${id}`;

    // The member uploads a document, makes a group with the administrator in it, shares the
    // document there and comments on it.
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    const drive = new DrivePage(page);
    await drive.open();
    await drive.uploadFiles([pdf]);
    await drive.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);
    await expect(drive.card(pdf.name)).toBeVisible({ timeout: 10_000 });
    const groups = new GroupSettingsPage(page);
    await groups.openCreate();
    await groups.nameField().fill(group);
    await groups.choosePerson(ADMIN.username);
    const channelId = await groups.create();
    await drive.open();
    await new ChannelCard(page, drive.card(pdf.name)).shareTo(group);
    await page.goto(channelPath(channelId));
    const memberCard = new ChannelCard(page, page.getByTestId('document-card').filter({ hasText: pdf.name }));
    await memberCard.openThread();
    const comment = `Nothing fancy ${id}: the figures look right.`;
    await memberCard.commentBox().fill(comment);
    const added = memberCard.saved('POST');
    await memberCard.commentBox().press('Enter');
    await added;
    await expect(memberCard.comments()).toHaveCount(1);

    const adminContext = await browser.newContext();
    try {
      const adminPage = await adminContext.newPage();
      await new AuthPages(adminPage).signIn(ADMIN);
      await expect(adminPage).not.toHaveURL(/\/auth\/signin/, { timeout: 10_000 });

      // The administrator sees the comment, then erases its author; their own row offers no Erase.
      await adminPage.goto(channelPath(channelId));
      const adminCard = new ChannelCard(adminPage, adminPage.getByTestId('document-card').filter({ hasText: pdf.name }));
      await adminCard.openThread();
      await expect(adminCard.comments().first()).toContainText(comment);

      const users = new AdminUsersPage(adminPage);
      await users.open();
      await expect(users.row(ADMIN.username)).toContainText('(you)');
      await expect(users.row(ADMIN.username).getByRole('button', { name: /^Erase/ })).toHaveCount(0);
      await users.eraseButton(user.username).click();
      await expect(users.eraseDialog(user.username)).toBeVisible();
      await users.eraseDialog(user.username).getByRole('button', { name: 'Cancel' }).click();
      await expect(users.eraseDialog(user.username)).toBeHidden();
      await users.erase(user.username);
      await expect(users.row(user.username)).toHaveCount(0);
      await expect(adminPage.getByText(`${user.username}'s account was erased.`)).toBeVisible();

      // The comment is still in its thread, its text and author erased.
      await adminPage.goto(channelPath(channelId));
      await adminCard.openThread();
      await expect(adminCard.comments()).toHaveCount(1);
      await expect(adminCard.comments().first()).toContainText(ERASED_COMMENT);
      await expect(adminCard.comments().first()).toContainText(ERASED_NAME);
      await expect(adminCard.thread()).not.toContainText(comment);
    } finally {
      await adminContext.close();
    }

    // The member's session ended with the account: a reload lands on sign-in, and the old
    // password no longer signs in.
    await page.reload();
    await auth.expectOnSignIn();
    await auth.signIn(user, { open: false });
    await expect(auth.serverError()).toHaveText('invalid email or password');
  });

  test.describe('on a phone (390×844)', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the Erase account section and its dialog fit the screen, and the erasure goes through', async ({
      page,
      auth,
      shell,
      settings,
      user,
    }) => {
      await auth.signUp(user);
      await shell.expectSignedInAt('/feeds/home');
      await settings.open();
      await settings.eraseSection().scrollIntoViewIfNeeded();
      await expectNoSideScroll(page);
      await expectTouchTargets(settings.eraseSection().getByRole('button'));

      const dialog = await settings.openEraseAccount();
      await expectNoSideScroll(page);
      await expectInReach(page, settings.erasePassword());
      const buttons = dialog.getByRole('button', { name: /^(Cancel|Erase my account)$/ });
      await expect(buttons).toHaveCount(2);
      await expectTouchTargets(buttons);
      await expectInReach(page, buttons.first());
      await expectInReach(page, buttons.last());

      await settings.confirmEraseAccount(user.password);
      await auth.expectOnSignIn();
      await expect(page.getByRole('status').filter({ hasText: 'Your account was erased' })).toBeVisible();
      await expectNoSideScroll(page);
    });
  });
});
