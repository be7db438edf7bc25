import { expect, test } from './fixtures';
import { PasswordPages } from './pages/password-pages';
import { ADMIN, uniqueUser } from './support/users';

const STRONG = 'amber-walrus-paints-12-harbours';

test.describe('accounts', () => {
  test('sign-up refuses a common password and shows the reason under the field', async ({ page, user }) => {
    const passwords = new PasswordPages(page);
    await page.goto('/auth/platform-access');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(await passwords.fieldError('Password')).toContainText('password is too easy to guess');
    await expect(page).toHaveURL(/\/auth\/platform-access$/);
  });

  test('a signed-in user changes their password; the old one stops working', async ({ page, auth, shell, settings, user }) => {
    const passwords = new PasswordPages(page);
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await settings.open();
    await expect(page.getByRole('heading', { name: 'Password' })).toBeVisible();

    await passwords.changePassword('not-my-password', STRONG);
    await expect(await passwords.fieldError('Current password')).toHaveText('the current password is not right');
    await passwords.changePassword(user.password, 'qwerty123');
    await expect(await passwords.fieldError('New password')).toContainText('too easy to guess');
    await passwords.changePassword(user.password, STRONG, 'something-else-entirely');
    await expect(await passwords.fieldError('Repeat the new password')).toHaveText('The two passwords differ');

    await passwords.changePassword(user.password, STRONG);
    await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible();
    await settings.signOut();
    await auth.expectOnSignIn();
    await auth.signIn(user, { open: false });
    await expect(auth.serverError()).toHaveText('invalid email or password');
    await auth.signIn({ ...user, password: STRONG }, { open: false });
    await shell.expectSignedInAt('/feeds/home');
  });

  test('with no mail, an administrator copies a reset link and the user sets a new password with it once', async ({
    page,
    browser,
    auth,
    shell,
    settings,
    user,
  }) => {
    const passwords = new PasswordPages(page);
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await settings.open();
    await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
    await settings.signOut();

    // The forgotten-password screen says plainly that no mail is sent and who can help.
    await auth.expectOnSignIn();
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/auth\/forgot-password$/);
    await expect(page.getByText('This server sends no email')).toBeVisible();
    await expect(page.getByText(/Ask an administrator of your workspace for a reset link/)).toBeVisible();

    // The administrator, in a browser of their own, copies a link from the users page.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await adminPage.goto('/auth/signin');
    await adminPage.getByLabel('Email').fill(ADMIN.email);
    await adminPage.getByLabel('Password').fill(ADMIN.password);
    await adminPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(adminPage).not.toHaveURL(/\/auth\/signin/);
    await adminPage.goto('/settings/user-settings');
    await adminPage.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Users' }).click();
    await expect(adminPage).toHaveURL(/\/settings\/users$/);
    const link = await new PasswordPages(adminPage).copyResetLink(user.username);
    await adminContext.close();

    // The user opens it (a page of the app, 200), is refused a weak password with the reason,
    // and sets a strong one.
    expect((await page.goto(link))?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await passwords.chooseNewPassword('iloveyou1');
    await expect(await passwords.fieldError('New password')).toContainText('too easy to guess');
    await passwords.chooseNewPassword(STRONG);
    await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await auth.signIn({ ...user, password: STRONG }, { open: false });
    await shell.expectSignedInAt('/feeds/home');

    // The link works once.
    await settings.open();
    await settings.signOut();
    await auth.expectOnSignIn();
    await page.goto(link);
    await passwords.chooseNewPassword('another-calm-river-88');
    await expect(page.getByRole('alert')).toHaveText(
      'this reset link has expired or has already been used; ask for a new one',
    );
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  });

  test('a stranger is not shown the users page', async ({ page, auth, shell }) => {
    await auth.signUp(uniqueUser());
    await shell.expectSignedInAt('/feeds/home');
    await page.goto('/settings/users');
    await expect(page.getByText('Only administrators manage users.')).toBeVisible();
  });
});
