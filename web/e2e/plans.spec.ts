/**
 * Plans and the pricing gate against the real server. An administrator turns `is_pricing` on for
 * a new member, who stays on the free plan (two feeds). With two feeds, New feed opens the
 * pricing prompt instead of the builder, its footer leads to the feed manager, and the server
 * refuses a third feed even when the browser is bypassed. Once the administrator puts the member
 * on Professional from the Users page, the third feed is made in the builder, and the Plan page
 * shows the plan and the usage against its limits.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { AdminUsersPage } from './pages/admin-users-page';
import { AuthPages } from './pages/auth-pages';
import { CustomFeedPages } from './pages/custom-feed-pages';
import { ADMIN } from './support/users';
import { expect, test } from './fixtures';

/** Calls the API as the page's signed-in user (the app keeps its token in local storage). */
function call<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const { token } = JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { token?: string };
      const response = await fetch(`/api${path}`, {
        method,
        headers: { token: token ?? '', 'app-type': 'web', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
    },
    { method, path, body },
  );
}

/** Returns the id of the page's signed-in user, from the session the app keeps. */
const userId = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { user?: { id?: string } }).user?.id ?? '');

/** A keyword feed's definition, as the builder sends it (the server fills in the rest). */
const feed = (name: string, keyword: string) => ({
  definition: { name, keywords: { include: [{ keyword, valid: true }], exclude: [] } },
});

test('on the free plan a third feed opens the pricing prompt; on Professional it is made, and the Plan page shows usage', async ({
  page,
  browser,
  auth,
  shell,
  user,
}) => {
  test.setTimeout(120_000);
  const tag = randomBytes(3).toString('hex');
  const custom = new CustomFeedPages(page);
  const prompt = page.getByRole('dialog');

  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  const memberId = await userId(page);
  expect(memberId).not.toBe('');

  const adminContext = await browser.newContext();
  try {
    const adminPage = await adminContext.newPage();
    await new AuthPages(adminPage).signIn(ADMIN);
    await expect(adminPage).not.toHaveURL(/\/auth\/signin/, { timeout: 10_000 });
    const users = new AdminUsersPage(adminPage);
    await users.open();

    // Pricing on for the member, who is on the free plan.
    const flag = await call(adminPage, 'PUT', `/admin/users/${encodeURIComponent(memberId)}/flags/is_pricing`, { value: 'on' });
    expect(flag.status).toBe(200);
    const planSelect = users.row(user.username).getByRole('combobox', { name: `Plan for ${user.username}` });
    await expect(planSelect).toHaveValue('free');

    // Two feeds, the free plan's limit, made through the API.
    for (const [i, keyword] of ['inflation', 'harbour'].entries()) {
      const made = await call(page, 'POST', '/boards/v2', feed(`Plans ${tag} ${i + 1}`, keyword));
      expect(made.status, JSON.stringify(made.json)).toBe(200);
    }

    // The flags are read once a page load: a reload turns the gate on.
    await page.reload();
    await expect(custom.navFeed(`Plans ${tag} 1`)).toBeVisible({ timeout: 10_000 });

    // New feed opens the prompt instead of the builder; its footer leads to the feed manager.
    await custom.newFeedEntry().click();
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText(/up to 2 custom feeds/);
    await expect(custom.builder()).toBeHidden();
    await prompt.getByRole('link', { name: 'Manage feeds' }).click();
    await expect(page).toHaveURL(/\/settings\/feeds$/);
    await expect(prompt).toBeHidden();
    await expect(page.getByRole('list', { name: 'Your feeds' }).getByTestId('feed-settings-row')).toHaveCount(2);

    // The server refuses a third feed even when the browser is bypassed.
    const refused = await call<{ code: string; message: string }>(page, 'POST', '/boards/v2', feed(`Plans ${tag} 3`, 'repo'));
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('plan_required');

    // The administrator puts the member on Professional.
    const saved = adminPage.waitForResponse(
      (r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === `/api/admin/users/${memberId}/plan`,
    );
    await planSelect.selectOption('pro');
    expect((await saved).status()).toBe(204);
    await expect(adminPage.getByText(`${user.username} is now on the Professional plan.`)).toBeVisible();
    await expect(planSelect).toBeEnabled();
    await expect(planSelect).toHaveValue('pro');
  } finally {
    await adminContext.close();
  }

  // Now the builder opens and makes the third feed.
  await page.goto('/feeds/home');
  await expect(custom.navFeed(`Plans ${tag} 1`)).toBeVisible({ timeout: 10_000 });
  await custom.openFromNav();
  await custom.chooseKeywordFeed();
  await custom.nameField().fill(`Plans ${tag} 3`);
  await custom.addKeyword('repo');
  await custom.save('Create feed');
  await expect(custom.navFeed(`Plans ${tag} 3`)).toBeVisible();

  // The Plan page: the plan, and usage against its limits.
  await page.goto('/settings/plan');
  await expect(page.getByText('Professional', { exact: true })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Feeds used', exact: true })).toHaveAttribute('aria-valuetext', '3 of 25');
  await expect(page.getByRole('progressbar', { name: 'Enabled feeds used' })).toHaveAttribute('aria-valuetext', '3 of 25');
  await expect(page.getByRole('progressbar', { name: 'Storage used' })).toHaveAttribute('aria-valuetext', '0 B of 10 GB');
  await expect(page.getByRole('progressbar', { name: 'Notebooks used' })).toHaveCount(0);
  await expect(page.getByText('Ask your administrator to change your plan.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Plan' })).toHaveAttribute('aria-current', 'page');
});
