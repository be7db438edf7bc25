/**
 * The pulse variant against the real server (not runnable until the server has the WhatsApp
 * verification endpoints). A user signs in at the pulse sign-in and lands on the pulse profile
 * page, sets a WhatsApp number, goes to verify it and asks for a code. With no messaging provider
 * the code goes to the outbox, which the administrator reads through the API with their token (and
 * sees on the Outbox page). A wrong code is refused with the tries left; the right one verifies the
 * number, fires `whatsapp number verified` and the profile says Verified. Signing out goes to the
 * pulse sign-in. On a phone the pages fit the screen, their controls are big enough for a finger,
 * and the portfolio is created on the pulse portfolio page.
 */
import { randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PulsePages } from './pages/pulse-pages';
import { expectNoSideScroll, expectTouchTargets } from './support/layout';
import { ADMIN, type TestUser } from './support/users';

/** A UK mobile number no other test uses, so the outbox message found is this test's. */
const uniqueNumber = () => `+44 7700 9${String(randomInt(0, 100_000)).padStart(5, '0')}`;

/** Returns a different six-digit code: each digit one up. */
const wrongCodeFor = (code: string) => code.replace(/\d/g, (d) => String((Number(d) + 1) % 10));

/** Signs `user` up through the API: the journey starts at the pulse sign-in, not the sign-up page. */
async function signUpThroughApi(request: APIRequestContext, user: TestUser) {
  const answer = await request.post('/api/auth/signup', { data: user });
  expect(answer.ok(), await answer.text()).toBe(true);
}

/** Returns the administrator's session token, signed in through the API. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/api/auth/signin', { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(answer.ok(), await answer.text()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

interface OutboxMessage {
  id: string;
  channel: string;
  recipient: string;
  body: string;
  created_at: string;
}

/** Reads the newest code the outbox holds for `recipient`, as an administrator would, waiting for it to arrive. */
async function readCodeFromOutbox(request: APIRequestContext, recipient: string): Promise<string> {
  const token = await adminToken(request);
  let code = '';
  await expect
    .poll(
      async () => {
        const answer = await request.get('/api/admin/outbox?limit=50', { headers: { token, 'app-type': 'web' } });
        expect(answer.status()).toBe(200);
        const { messages } = (await answer.json()) as { messages: OutboxMessage[] };
        const message = messages.find((m) => m.channel === 'whatsapp' && m.recipient === recipient);
        code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] ?? '';
        return code;
      },
      { message: `a WhatsApp code for ${recipient} in the outbox`, timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code;
}

/** Starts collecting the page's `whatsapp number verified` events (the app is one page: they stay). */
const listenForVerified = (page: Page) =>
  page.evaluate(() => {
    const heard: unknown[] = [];
    (window as unknown as { heardVerified: unknown[] }).heardVerified = heard;
    window.addEventListener('whatsapp number verified', (event) => heard.push((event as CustomEvent).detail));
  });

const heardVerified = (page: Page) => page.evaluate(() => (window as unknown as { heardVerified: unknown[] }).heardVerified);

test.describe('the pulse variant', () => {
  test('a user signs in to pulse, verifies their WhatsApp number with a code from the outbox, and signs out to the pulse sign-in', async ({
    page,
    browser,
    request,
    user,
  }) => {
    test.setTimeout(90_000);
    const pulse = new PulsePages(page);
    const number = uniqueNumber();
    await signUpThroughApi(request, user);

    // The pulse sign-in leads to the pulse profile page, in the pulse layout; the variant is kept.
    await pulse.signIn(user);
    await expect(pulse.header()).toContainText('Needl Pulse');
    await expect(pulse.header()).toContainText(user.username);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('appType'))).toBe('pulse');

    // A number first; it is not verified.
    await pulse.setWhatsappNumber(number);
    await expect(pulse.whatsappStatus()).toContainText('Not verified');
    await expect(pulse.whatsappStatus()).toContainText(number);

    // The verification page shows the number; verifying is optional for this user.
    await pulse.openVerification();
    await expect(page.getByTestId('whatsapp-number')).toHaveText(number);
    await expect(page.getByText(/Verifying your number is optional/)).toBeVisible();
    await expect(pulse.codeField()).toHaveCount(0);
    await pulse.sendCode();
    await expect(page.getByRole('status').filter({ hasText: `Code sent to ${number}.` })).toBeVisible();
    await expect(pulse.codeField()).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(pulse.codeField()).toHaveAttribute('inputmode', 'numeric');
    // At most one code a minute: the button waits, counting down.
    await expect(page.getByRole('button', { name: 'Send a new code' })).toBeDisabled();
    await expect(page.getByTestId('resend-countdown')).toContainText(/You can ask for another code in \d+ s\./);

    // No messaging provider: the administrator reads the code in the outbox and passes it on.
    const code = await readCodeFromOutbox(request, number);

    // The administrator sees it on the Outbox page too.
    const adminContext = await browser.newContext();
    try {
      const adminPage = await adminContext.newPage();
      await adminPage.goto('/auth/signin');
      await adminPage.getByLabel('Email').fill(ADMIN.email);
      await adminPage.getByLabel('Password').fill(ADMIN.password);
      await adminPage.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(adminPage).not.toHaveURL(/\/auth\/signin/, { timeout: 10_000 });
      await adminPage.goto('/settings/outbox');
      const message = adminPage.getByRole('listitem', { name: `WhatsApp to ${number}` }).first();
      await expect(message).toContainText(`Your Needl verification code is ${code}.`);
    } finally {
      await adminContext.close();
    }

    // A wrong code is refused, with the tries left.
    expect(await pulse.verify(wrongCodeFor(code))).toBe(422);
    await expect(page.getByText('That code is not right; 4 tries left.')).toBeVisible();
    await expect(pulse.codeField()).toHaveAttribute('aria-invalid', 'true');

    // The right code verifies the number: the event fires, and the profile says Verified.
    await listenForVerified(page);
    expect(await pulse.verify(code)).toBe(200);
    await pulse.expectOnProfile();
    await expect(pulse.toast('Your WhatsApp number is verified')).toBeVisible();
    await expect(pulse.whatsappStatus()).toContainText('Verified');
    await expect(pulse.whatsappStatus()).not.toContainText('Not verified');
    expect(await heardVerified(page)).toEqual([{ number }]);

    // Still verified after a reload: the server keeps it.
    await page.reload();
    await expect(pulse.whatsappStatus()).toContainText('Verified');
    await expect(pulse.whatsappStatus()).not.toContainText('Not verified');

    // Signing out goes to the pulse sign-in; /pulse then leads there too.
    await pulse.signOutButton().click();
    await pulse.expectOnSignIn();
    await page.goto('/pulse');
    await pulse.expectOnSignIn();
    // A pulse page asked for while signed out comes back after signing in.
    await page.goto('/pulse/update-portfolio');
    await pulse.expectOnSignIn();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/pulse\/update-portfolio$/, { timeout: 10_000 });
    await expect(page.getByRole('heading', { name: 'Create your portfolio', level: 1 })).toBeVisible();
  });

  test.describe('on a phone (390×844)', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the pulse pages fit the screen, their controls take a finger, and the portfolio is created', async ({
      page,
      request,
      user,
    }) => {
      test.setTimeout(90_000);
      const pulse = new PulsePages(page);
      await signUpThroughApi(request, user);

      await page.goto('/pulse/auth/signin');
      await expectNoSideScroll(page);
      await expectTouchTargets(page.getByRole('button', { name: 'Sign in', exact: true }));
      await pulse.signIn(user);

      // The profile: the header's Sign out and links, the form's button.
      await expectNoSideScroll(page);
      await expectTouchTargets(pulse.signOutButton().or(pulse.header().getByRole('link', { name: /^(Profile|Portfolio)$/ })));
      await pulse.setWhatsappNumber(uniqueNumber());
      await expectTouchTargets(page.getByRole('button', { name: 'Save profile' }).or(pulse.numberField()));
      await expectTouchTargets(pulse.whatsappSection().getByRole('link', { name: 'Verify your number' }));

      // Verification: Send code, then the code field and Verify.
      await pulse.openVerification();
      await expectNoSideScroll(page);
      await expectTouchTargets(page.getByRole('button', { name: 'Send code' }));
      await pulse.sendCode();
      await expectTouchTargets(pulse.codeField().or(page.getByRole('button', { name: 'Verify', exact: true })));
      await expectNoSideScroll(page);

      // The portfolio: created on the pulse page, which then edits it.
      await pulse.header().getByRole('link', { name: 'Portfolio' }).click();
      await expect(page.getByRole('heading', { name: 'Create your portfolio', level: 1 })).toBeVisible();
      await expectNoSideScroll(page);
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Pulse holdings');
      await page.getByRole('textbox', { name: 'Company, row 1', exact: true }).fill('Apple Inc.');
      await page.getByRole('textbox', { name: 'ISIN, row 1', exact: true }).fill('US0378331005');
      await page.getByRole('textbox', { name: 'Quantity, row 1', exact: true }).fill('12');
      await expectTouchTargets(page.getByRole('button', { name: 'Create portfolio' }));
      await page.getByRole('button', { name: 'Create portfolio' }).click();
      await expect(pulse.toast('Portfolio created')).toBeVisible();
      await expect(page).toHaveURL(/\/pulse\/update-portfolio\?id=/);
      await expect(page.getByRole('heading', { name: 'Update your portfolio', level: 1 })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Pulse holdings');
      await expectNoSideScroll(page);
    });
  });
});
