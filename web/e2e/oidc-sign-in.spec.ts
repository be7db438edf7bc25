/**
 * Signing in with the organisation's identity provider, against the test OpenID Connect provider
 * playwright.config.ts starts ("Example Corp", domain example.com): the person lands signed in on
 * the page they asked for, with the token gone from the address, in every tab and after a reload
 * (which refreshes the session at the provider); a forged callback and an address outside the
 * organisation's domain come back to sign-in with a sentence that says so.
 */
import { IdentityProviderPage } from './pages/identity-provider-page';
import { expectNoSideScroll, expectTouchTargets } from './support/layout';
import { expect, test } from './fixtures';

const ORGANISATION_BUTTON = { name: 'Sign in with Example Corp' } as const;

test.describe('sign-in with the organisation', () => {
  test('lands signed in on the page asked for, in every tab, and a reload keeps the session', async ({
    page,
    auth,
    settings,
  }) => {
    const provider = new IdentityProviderPage(page);
    // A second tab waits on the sign-in page: the login is announced to it.
    const waiting = await page.context().newPage();
    await waiting.goto('/auth/signin');
    await expect(waiting.getByRole('button', ORGANISATION_BUTTON)).toBeVisible();

    await page.goto('/settings/user-settings');
    await auth.expectOnSignIn();
    await page.getByRole('button', ORGANISATION_BUTTON).click();
    await provider.signInAs('alice');

    await expect(page).toHaveURL(/\/settings\/user-settings$/, { timeout: 10_000 });
    await expect(settings.username()).toHaveText('Alice Analyst');
    await expect(settings.email()).toHaveText('alice@example.com');
    // The token left the address (its history entry was replaced), and the marker is gone.
    expect(await page.evaluate(() => ({ hash: location.hash, marker: localStorage.getItem('oauth-signin') }))).toEqual({
      hash: '',
      marker: null,
    });

    await expect(waiting).not.toHaveURL(/\/auth\/signin/, { timeout: 10_000 });
    await waiting.goto('/settings/user-settings');
    await expect(waiting.getByTestId('profile-username')).toHaveText('Alice Analyst');
    await waiting.close();

    await settings.open();
    await page.reload();
    await expect(settings.username()).toHaveText('Alice Analyst');
  });

  test('a callback with a forged state comes back to sign-in, which says to try again', async ({ page, auth }) => {
    await page.goto('/auth/signin');
    await page.getByRole('button', ORGANISATION_BUTTON).click();
    await new IdentityProviderPage(page).expectShown();

    // The pending sign-in's cookie is set, but the state is not the one it holds.
    await page.goto('/api/auth/oidc/callback?code=x&state=forged');
    await auth.expectOnSignIn();
    await expect(page.getByRole('alert')).toHaveText("That sign-in didn't complete. Please try again.");
    expect(await page.evaluate(() => localStorage.getItem('needl.session'))).toBeNull();

    // With no sign-in under way at all, the same.
    await page.goto('/api/auth/oidc/callback?code=x&state=y');
    await auth.expectOnSignIn();
    await expect(page.getByRole('alert')).toHaveText("That sign-in didn't complete. Please try again.");
  });

  test('an address outside the organisation’s domains gets no account, and is told why', async ({ page, auth }) => {
    await page.goto('/auth/signin');
    await page.getByRole('button', ORGANISATION_BUTTON).click();
    await new IdentityProviderPage(page).signInAs('otto');

    await auth.expectOnSignIn();
    await expect(page.getByRole('alert')).toHaveText(
      "Your organisation's sign-in isn't set up for this email address. Ask your administrator.",
    );
  });

  test('a link to the handoff page without a token says it is incomplete', async ({ page }) => {
    await page.goto('/oauth/redirect#redirect=%2Fnotebooks');
    await expect(page.getByRole('heading', { name: 'This sign-in link is incomplete' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to sign-in' }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the button fits the screen and is big enough for a finger', async ({ page }) => {
      await page.goto('/auth/signin');
      await expectTouchTargets(page.getByRole('button', ORGANISATION_BUTTON));
      await expectNoSideScroll(page);
    });
  });
});
