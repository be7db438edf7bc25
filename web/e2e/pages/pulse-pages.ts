import { expect, type Page } from '@playwright/test';
import type { TestUser } from '../support/users';

/**
 * The pulse variant: its sign-in (/pulse/auth/signin), its profile page with the WhatsApp number
 * and whether it is verified (/pulse/settings/user-settings), the verification page
 * (/pulse/whatsapp-verification) and the portfolio page (/pulse/update-portfolio), under a header
 * with the user's name and Sign out.
 */
export class PulsePages {
  constructor(private readonly page: Page) {}

  readonly header = () => this.page.getByRole('banner');
  readonly signOutButton = () => this.header().getByRole('button', { name: 'Sign out' });
  readonly numberField = () => this.page.getByRole('textbox', { name: 'WhatsApp number' });
  readonly whatsappSection = () => this.page.getByRole('region', { name: 'WhatsApp verification' });
  readonly whatsappStatus = () => this.whatsappSection().getByTestId('whatsapp-status');
  readonly codeField = () => this.page.getByRole('textbox', { name: '6-digit code' });
  readonly toast = (text: string) => this.page.getByRole('status').filter({ hasText: text });

  /** Signs in on the pulse sign-in page and waits for the pulse profile page. */
  async signIn(user: TestUser) {
    await this.page.goto('/pulse/auth/signin');
    await expect(this.page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(this.page.getByText('Sign in to Needl Pulse.')).toBeVisible();
    await this.page.getByLabel('Email').fill(user.email);
    await this.page.getByLabel('Password').fill(user.password);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await this.expectOnProfile();
  }

  async expectOnProfile() {
    await expect(this.page).toHaveURL(/\/pulse\/settings\/user-settings$/, { timeout: 10_000 });
    await expect(this.page.getByRole('heading', { name: 'Your profile', level: 1 })).toBeVisible();
  }

  async expectOnSignIn() {
    await expect(this.page).toHaveURL(/\/pulse\/auth\/signin$/, { timeout: 10_000 });
    await expect(this.page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  }

  /** Saves `number` as the profile's WhatsApp number and waits until the server has. */
  async setWhatsappNumber(number: string) {
    await this.numberField().fill(number);
    const saved = this.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user' && r.request().method() === 'PATCH');
    await this.page.getByRole('button', { name: 'Save profile' }).click();
    expect((await saved).status()).toBe(200);
    await expect(this.page.getByRole('status').filter({ hasText: 'Profile saved.' })).toBeVisible();
  }

  /** From the profile page, follows the way to verify the number. */
  async openVerification() {
    await this.whatsappSection().getByRole('link', { name: 'Verify your number' }).click();
    await expect(this.page).toHaveURL(/\/pulse\/whatsapp-verification$/);
    await expect(this.page.getByRole('heading', { name: 'Verify your WhatsApp number', level: 1 })).toBeVisible();
  }

  /** Asks for a code and waits until the server has sent it; the code field is then shown. */
  async sendCode() {
    const sent = this.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/user/whatsapp/otp' && r.request().method() === 'POST',
    );
    await this.page.getByRole('button', { name: 'Send code' }).click();
    expect((await sent).status()).toBe(200);
    await expect(this.codeField()).toBeVisible();
  }

  /** Types `code` and presses Verify; returns the server's answer's status. */
  async verify(code: string) {
    await this.codeField().fill(code);
    const answered = this.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/user/whatsapp/verify' && r.request().method() === 'POST',
    );
    await this.page.getByRole('button', { name: 'Verify', exact: true }).click();
    return (await answered).status();
  }
}
