/**
 * Settings pages against the real server: the WhatsApp number on User Settings is refused in the
 * browser without its country code (nothing is sent), saved and cleared, and refused by the
 * server with its own sentence when the browser is bypassed; /onboarding asks a new user for
 * their industry and profession, completes onboarding and goes home, and afterwards only goes
 * home; the storage sub-pages (an empty storage, and a type's files in Needl Drive from the
 * storage table) and the settings catch-all (a 404 inside the settings tabs). On a phone none of
 * these pages scrolls sideways.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { generatedPdf } from './support/pdf';
import { expectNoSideScroll } from './support/layout';
import { expect, test } from './fixtures';

const NUMBER_HINT = 'Enter the WhatsApp number with its country code, e.g. +44 7700 900123';
const SERVER_REFUSAL = 'enter the WhatsApp number with its country code, e.g. +44 7700 900123';

/** Returns the token the page keeps with its session, to call the API as this user. */
const sessionToken = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('needl.session') ?? '{}') as { token?: string }).token ?? '');

/** The profile form on /settings/user-settings. */
class ProfileForm {
  constructor(private readonly page: Page) {}

  readonly form = () => this.page.getByRole('form', { name: 'Profile details' });
  readonly industry = () => this.form().getByRole('textbox', { name: 'Industry' });
  readonly number = () => this.form().getByRole('textbox', { name: 'WhatsApp number' });
  readonly status = () => this.form().getByRole('status');

  /** Clicks Save profile and waits until the server has saved the profile. */
  async saveAndWait() {
    const saved = this.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/user' && r.request().method() === 'PATCH' && r.ok(),
    );
    await this.form().getByRole('button', { name: 'Save profile' }).click();
    await saved;
    await expect(this.status()).toHaveText('Profile saved.');
  }
}

/** /onboarding: the attributes form as a page. */
class OnboardingPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole('heading', { name: 'Tell us about your work', level: 1 });
  readonly industry = () => this.page.getByRole('textbox', { name: 'Industry' });
  readonly profession = () => this.page.getByRole('textbox', { name: 'Profession' });
  readonly continueButton = () => this.page.getByRole('button', { name: 'Continue' });
}

test.describe('the WhatsApp number', () => {
  test('is refused without its country code in the browser, saved with it, cleared, and refused by the server too', async ({
    page,
    request,
    auth,
    shell,
    settings,
    user,
  }) => {
    const profile = new ProfileForm(page);
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await settings.open();
    await expect(profile.number()).toHaveValue('');
    await expect(profile.number()).toHaveAccessibleDescription(/With its country code/);

    // Without the country code: refused beside the field, and nothing is sent.
    const sent: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/user' && r.method() === 'PATCH') sent.push(r.method());
    });
    await profile.number().fill('07700 900123');
    await profile.form().getByRole('button', { name: 'Save profile' }).click();
    await expect(profile.number()).toHaveAttribute('aria-invalid', 'true');
    await expect(profile.number()).toHaveAccessibleDescription(NUMBER_HINT);
    await expect(profile.number()).toBeFocused();
    expect(sent).toEqual([]);

    // With it (typed, ending with Enter): saved as typed, and there after a reload.
    await profile.number().fill('');
    await profile.number().pressSequentially('+44 7700 900123');
    await expect(profile.number()).not.toHaveAttribute('aria-invalid');
    await profile.industry().fill('Banking');
    await profile.saveAndWait();
    await page.reload();
    await expect(profile.number()).toHaveValue('+44 7700 900123');
    await expect(profile.industry()).toHaveValue('Banking');

    // The server refuses what the browser would, with the spec's sentence.
    const token = await sessionToken(page);
    const answer = await request.patch('/api/user', {
      headers: { token, 'app-type': 'web' },
      data: { whatsapp_number: '+0 7700 900123' },
    });
    expect(answer.status()).toBe(422);
    expect(await answer.json()).toMatchObject({ code: 'invalid_whatsapp_number', message: SERVER_REFUSAL });

    // Emptied, it is cleared.
    await profile.number().fill('');
    await profile.saveAndWait();
    await page.reload();
    await expect(profile.number()).toHaveValue('');
  });
});

test.describe('onboarding', () => {
  test('asks a new user for their industry and profession, goes home, and afterwards only goes home', async ({
    page,
    auth,
    shell,
    settings,
    user,
  }) => {
    const onboarding = new OnboardingPage(page);
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    await page.goto('/onboarding');
    await expect(onboarding.heading()).toBeVisible();
    // Blank answers are refused in the browser, the first one focused.
    await onboarding.continueButton().click();
    await expect(onboarding.industry()).toHaveAttribute('aria-invalid', 'true');
    await expect(onboarding.industry()).toHaveAccessibleDescription('Industry is a required field');
    await expect(onboarding.industry()).toBeFocused();

    await onboarding.industry().fill('Banking');
    await onboarding.profession().fill('Equity analyst');
    const completed = page.waitForResponse((r) => r.url().endsWith('/api/onboarding/attributes') && r.ok());
    await onboarding.profession().press('Enter');
    expect(await (await completed).json()).toEqual({ user_status: 'active' });
    await shell.expectSignedInAt('/feeds/home');

    // Done: the page goes straight on, and the answers are in the profile.
    await page.goto('/onboarding');
    await shell.expectSignedInAt('/feeds/home');
    await expect(onboarding.heading()).toHaveCount(0);
    await settings.open();
    await expect(page.getByRole('textbox', { name: 'Industry' })).toHaveValue('Banking');
    await expect(page.getByRole('textbox', { name: 'Profession' })).toHaveValue('Equity analyst');
  });
});

test.describe('storage', () => {
  test('an empty storage leads to the drive; a type in the storage table leads to its files, each to its preview', async ({
    page,
    auth,
    shell,
    drive,
    user,
  }) => {
    test.setTimeout(90_000);
    const tag = randomBytes(3).toString('hex');
    const pdf = generatedPdf(`storage-${tag}.pdf`, tag);
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    await page.goto('/settings/storage/empty');
    await expect(shell.title()).toHaveText('Storage');
    await expect(page.getByRole('heading', { name: 'Your storage is empty' })).toBeVisible();
    await page.getByRole('link', { name: 'Upload to Needl Drive' }).click();
    await expect(page).toHaveURL(/\/apps\/needldrive$/);

    await drive.uploadFiles([pdf]);
    await drive.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);

    await page.goto('/settings/storage');
    await page.getByRole('table').getByRole('link', { name: 'PDF' }).click();
    await expect(page).toHaveURL(/\/settings\/storage\/needldrive\/application%2Fpdf$/);
    await expect(page.getByRole('heading', { name: 'PDF files in Needl Drive' })).toBeVisible();
    const files = page.getByRole('list', { name: 'PDF files' });
    await expect(files.getByRole('listitem')).toHaveCount(1);
    await expect(files.getByRole('listitem')).toContainText(/uploaded \d{2}-\d{2}-\d{4}/);
    // The trail's Needl Drive crumb leads back to the storage page.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Needl Drive' }).click();
    await expect(page).toHaveURL(/\/settings\/storage$/);
    // Opened as a deep link too (the server answers the address with the app).
    const response = await page.goto('/settings/storage/needldrive/application%2Fpdf');
    expect(response?.status()).toBe(200);
    await files.getByRole('link', { name: pdf.name }).click();
    await expect(page).toHaveURL(/\/preview\/apps\//);

    // Another type has no files; the empty-storage page says the storage is not empty now.
    await page.goto('/settings/storage/needldrive/text%2Fmarkdown');
    await expect(page.getByRole('heading', { name: 'No Markdown files' })).toBeVisible();
    await page.goto('/settings/storage/empty');
    await expect(page.getByRole('heading', { name: 'Your storage is not empty' })).toBeVisible();
    await page.getByRole('link', { name: 'See your storage' }).click();
    await expect(page).toHaveURL(/\/settings\/storage$/);
  });
});

test.describe('the settings catch-all', () => {
  test('an unknown settings address is a 404 inside the settings tabs that leads back to User Settings; placeholders still say coming soon', async ({
    page,
    auth,
    shell,
    user,
  }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    for (const path of ['/settings/no-such-page', '/settings/storage/needldrive/application%2Fpdf/more']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(shell.title()).toHaveText('Page not found');
      await expect(page.getByRole('heading', { name: 'There is no settings page at this address' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Settings' })).toBeVisible();
      await expect(shell.sideNav()).toBeVisible();
    }
    await page.getByRole('link', { name: 'Go to User Settings' }).click();
    await expect(page).toHaveURL(/\/settings\/user-settings$/);
    await expect(shell.title()).toHaveText('User Settings');

    await page.goto('/managers');
    await expect(page.getByText(/coming soon/i).first()).toBeVisible();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the profile form with its error, onboarding, the storage pages and the catch-all fit the screen', async ({
    page,
    auth,
    shell,
    settings,
    user,
  }) => {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');

    await settings.open();
    const profile = new ProfileForm(page);
    await profile.number().fill('12345');
    await profile.form().getByRole('button', { name: 'Save profile' }).click();
    await expect(profile.number()).toHaveAccessibleDescription(NUMBER_HINT);
    await expectNoSideScroll(page);

    await page.goto('/onboarding');
    await expect(new OnboardingPage(page).heading()).toBeVisible();
    await expectNoSideScroll(page);

    for (const [path, heading] of [
      ['/settings/storage/empty', 'Your storage is empty'],
      ['/settings/storage/needldrive/application%2Fvnd.openxmlformats-officedocument.wordprocessingml.document', 'No Word files'],
      ['/settings/no-such-page', 'There is no settings page at this address'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      await expectNoSideScroll(page);
    }
  });
});
