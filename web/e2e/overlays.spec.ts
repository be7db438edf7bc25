import { OverlayPanel } from './pages/overlay';
import { expect, test } from './fixtures';

test.describe('overlays', () => {
  test.beforeEach(async ({ auth, shell, user }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
  });

  test('an overlay opens from the address, closes the navigation, and closing it keeps the path', async ({ page, shell }) => {
    await page.goto('/feeds/home?tab=1&overlay-type=portfolio');
    const portfolio = new OverlayPanel(page, 'Portfolio');
    await expect(portfolio.panel().getByRole('heading', { name: 'Create Portfolio' })).toBeVisible();
    await shell.expectNavState('closed');

    await portfolio.expandButton().click();
    await expect(portfolio.panel()).toHaveAttribute('data-width', '80');

    await portfolio.closeButton().click();
    await expect(portfolio.panel()).toHaveCount(0);
    await expect(page).toHaveURL(/\/feeds\/home\?tab=1$/);
    await shell.expectNavState('open');
  });

  test('overlay parameters are carried over when navigating', async ({ page, shell }) => {
    await page.goto('/feeds/home?overlay-type=report&overlay-report-id=r1');
    // No report r1: the overlay says so.
    await expect(page.getByRole('complementary', { name: 'Report' })).toContainText('This report could not be loaded');
    await shell.expectNavState('closed');
    await shell.navToggle().click();
    await shell.expectNavState('open');
    await shell.sideNav().getByRole('link', { name: 'Notebooks' }).click();
    await expect(page).toHaveURL(/\/notebooks\?overlay-type=report&overlay-report-id=r1$/);
    await expect(page.getByRole('heading', { name: 'Notebooks', level: 2 })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Report' })).toBeVisible();
  });

  test('invalid overlay parameters show the spec error, an unknown type shows nothing', async ({ page }) => {
    await page.goto('/feeds/home?overlay-type=preview&overlay-source=gmail');
    await expect(page.getByRole('alert')).toHaveText('Invalid Overlay params supplied!');
    await page.goto('/feeds/home?overlay-type=popup');
    await expect(page.getByRole('complementary')).toHaveCount(0);
  });
});
