import { expect, test } from './fixtures';

test.describe('authentication', () => {
  test('a new user signs up and lands on My Data in the app shell', async ({ page, auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await expect(shell.title()).toHaveText('My Data');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Home');
  });

  test('signing up with a short password is refused before reaching the server', async ({ page, user }) => {
    await page.goto('/auth/platform-access');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/platform-access$/);
  });

  test('a user signs out and signs in again', async ({ auth, shell, settings, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await settings.open();
    await settings.signOut();
    await auth.expectOnSignIn();

    await auth.signIn(user, { open: false });
    await shell.expectSignedInAt('/feeds/home');
  });

  test('a wrong password shows the server message', async ({ auth, shell, settings, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await settings.open();
    await settings.signOut();
    await auth.expectOnSignIn();
    await auth.signIn({ ...user, password: 'not-the-password' }, { open: false });
    await expect(auth.serverError()).toHaveText('invalid email or password');
  });

  test('a reload keeps the session', async ({ page, auth, shell, settings, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await settings.open();
    await expect(settings.username()).toHaveText(user.username);
    await page.reload();
    await expect(settings.username()).toHaveText(user.username);
    await expect(settings.email()).toHaveText(user.email);
  });

  test('a signed-out visit to a protected route returns there after sign-in', async ({ page, auth, shell, settings, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await settings.open();
    await settings.signOut();
    await auth.expectOnSignIn();

    await page.goto('/settings/user-settings');
    await auth.expectOnSignIn();
    await auth.signIn(user, { open: false });
    await expect(page).toHaveURL(/\/settings\/user-settings$/);
    await expect(settings.username()).toHaveText(user.username);
  });
});
