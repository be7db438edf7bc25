import { expect, type Page } from '@playwright/test';
import type { TestUser } from '../support/users';

/** The sign-up and sign-in pages. */
export class AuthPages {
  constructor(private readonly page: Page) {}

  async signUp(user: TestUser) {
    await this.page.goto('/auth/platform-access');
    await this.page.getByLabel('Username').fill(user.username);
    await this.page.getByLabel('Email').fill(user.email);
    await this.page.getByLabel('Password').fill(user.password);
    await this.page.getByRole('button', { name: 'Create account' }).click();
  }

  /** Fills the sign-in form on the current page (after a redirect) or opens it first. */
  async signIn(user: TestUser, { open = true } = {}) {
    if (open) await this.page.goto('/auth/signin');
    await expect(this.page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await this.page.getByLabel('Email').fill(user.email);
    await this.page.getByLabel('Password').fill(user.password);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  serverError() {
    return this.page.getByRole('alert');
  }

  async expectOnSignIn() {
    await expect(this.page).toHaveURL(/\/auth\/signin$/);
    await expect(this.page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  }
}
