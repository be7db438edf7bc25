import { expect, type Page } from '@playwright/test';

export const DASHBOARD = '/managers/report_generation/dashboard';

/** The reports dashboard, its rows, and the report overlay. */
export class ReportsPage {
  constructor(private readonly page: Page) {}

  readonly row = (name: string) => this.page.getByTestId('report-row').filter({ hasText: name });
  /** The row's title link, which opens the report overlay (the row's other link is the full page). */
  readonly openLink = (name: string) => this.row(name).getByRole('link').first();
  readonly overlay = () => this.page.getByRole('complementary', { name: 'Report' });
  readonly newReportButton = () => this.page.getByRole('button', { name: 'New report' });
  readonly dialog = () => this.page.getByRole('dialog', { name: 'New report' });

  async open() {
    await this.page.goto(DASHBOARD);
    await expect(this.newReportButton()).toBeVisible();
  }

  async expectRowStatus(name: string, status: string, timeout = 5_000) {
    await expect(this.row(name)).toHaveAttribute('data-status', status, { timeout });
  }

  /** Calls the API as the signed-in user (the app keeps its token in local storage). */
  async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
    return this.page.evaluate(
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
}
