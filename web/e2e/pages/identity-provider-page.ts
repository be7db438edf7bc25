import { expect, type Page } from '@playwright/test';

/** The test identity provider's login page (e2e/oidc/login-page.mjs): pick an account, sign in. */
export class IdentityProviderPage {
  constructor(private readonly page: Page) {}

  /** The provider's address, as playwright.config.ts starts it. */
  static readonly issuer = `http://127.0.0.1:${process.env.E2E_OIDC_PORT ?? 18090}`;

  async expectShown() {
    await expect(this.page).toHaveURL(new RegExp(`^${IdentityProviderPage.issuer}/interaction/`));
    await expect(this.page.getByRole('heading', { name: 'Sign in to the test identity provider' })).toBeVisible();
  }

  /** Signs in as the account whose subject is `sub` ('alice', 'otto'). */
  async signInAs(sub: string) {
    await this.expectShown();
    await this.page.getByLabel('Account').selectOption(sub);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }
}
