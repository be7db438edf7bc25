import { expect, type Page } from '@playwright/test';

/** The signed-in shell: header, breadcrumbs and the side navigation. */
export class AppShell {
  constructor(private readonly page: Page) {}

  readonly sideNav = () => this.page.getByRole('navigation', { name: 'Main' });
  readonly navToggle = () => this.page.locator('button[aria-controls="side-nav"]');
  readonly peekZone = () => this.page.getByTestId('nav-peek-zone');
  readonly title = () => this.page.locator('h1.page-title');
  readonly liveStatus = () => this.page.getByTestId('live-status');
  /** Below laptop width: the dimmed page behind the open drawer, and the drawer's own close button. */
  readonly scrim = () => this.page.getByTestId('nav-scrim');
  readonly drawerClose = () => this.sideNav().getByRole('button', { name: 'Close navigation' });

  /** The side navigation's machine state, as the page exposes it. */
  navState() {
    return this.page.locator('#side-nav');
  }

  async expectNavState(state: 'open' | 'opened' | 'close' | 'closed' | 'peek') {
    await expect(this.navState()).toHaveAttribute('data-state', state, { timeout: 5_000 });
  }

  async expectSignedInAt(path: string) {
    await expect(this.page).toHaveURL(new RegExp(`${path.replace(/[/?]/g, '\\$&')}$`), { timeout: 10_000 });
    await expect(this.title()).toBeVisible();
  }

  /** Toggles the navigation and waits until the server has saved the choice. */
  async toggleNavAndWaitForSave() {
    const saved = this.page.waitForResponse(
      (r) => r.url().endsWith('/api/user/preferences') && r.request().method() === 'PATCH' && r.ok(),
    );
    await this.navToggle().click();
    await saved;
  }

  /** Moves the mouse onto the strip at the left edge that makes a closed navigation peek. */
  async hoverLeftEdge() {
    await expect(this.peekZone()).toBeAttached();
    const box = await this.peekZone().boundingBox();
    if (!box) throw new Error('the peek strip has no box');
    // A real mouse move rather than locator.hover(): the strip goes away as soon as the nav peeks.
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  }

  /** Below laptop width: opens the drawer from the header's menu button. */
  async openDrawer() {
    await expect(this.navToggle()).toHaveAttribute('aria-expanded', 'false');
    await this.navToggle().click();
    await expect(this.sideNav()).toBeVisible();
    await expect(this.scrim()).toBeVisible();
    await expect(this.navToggle()).toHaveAttribute('aria-expanded', 'true');
  }

  /** Below laptop width: the drawer is shut, out of sight and out of reach. */
  async expectDrawerClosed() {
    await expect(this.sideNav()).toBeHidden();
    await expect(this.scrim()).toHaveCount(0);
    await expect(this.navToggle()).toHaveAttribute('aria-expanded', 'false');
  }

  async expectLive() {
    await expect(this.liveStatus()).toHaveAttribute('data-status', 'open', { timeout: 10_000 });
  }
}
