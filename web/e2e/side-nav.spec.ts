import { expect, test } from './fixtures';

test.describe('side navigation', () => {
  test.beforeEach(async ({ auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await shell.expectNavState('opened');
  });

  test('the toggle closes and reopens the navigation', async ({ shell }) => {
    await shell.navToggle().click();
    await shell.expectNavState('closed');
    await expect(shell.navToggle()).toHaveAttribute('aria-expanded', 'false');

    await shell.navToggle().click();
    await shell.expectNavState('open');
    await expect(shell.navToggle()).toHaveAttribute('aria-expanded', 'true');
    await expect(shell.sideNav().getByRole('link', { name: 'My Data' })).toBeVisible();
  });

  test('the chosen state is saved and restored after a reload', async ({ page, shell }) => {
    await shell.toggleNavAndWaitForSave();
    await shell.expectNavState('closed');
    await page.reload();
    await shell.expectNavState('closed');

    await shell.toggleNavAndWaitForSave();
    await page.reload();
    await shell.expectNavState('opened');
  });

  test('a closed navigation peeks on hover and hides when the mouse moves away', async ({ page, shell }) => {
    await shell.navToggle().click();
    await shell.expectNavState('closed');

    await shell.hoverLeftEdge();
    await shell.expectNavState('peek');
    await expect(shell.sideNav().getByRole('link', { name: 'Search' })).toBeVisible();

    await page.mouse.move(200, 400);
    await shell.expectNavState('peek');
    await page.mouse.move(700, 400);
    await shell.expectNavState('closed');
  });
});
