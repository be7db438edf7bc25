import { expect, type Page } from '@playwright/test';

/** /settings/audit and /settings/audit/history: the audit log, its chain panel and an aggregate's history. */
export class AuditPage {
  constructor(private readonly page: Page) {}

  readonly events = () => this.page.getByRole('table', { name: /Audit events/ });
  /** The rows of events (each event's detail is a row of its own, hidden until opened). */
  readonly rows = () => this.events().locator('tr.audit-row');
  readonly row = (text: string | RegExp) => this.rows().filter({ hasText: text });
  readonly chain = () => this.page.getByRole('region', { name: 'Hash chain' });
  readonly checkpoints = () => this.chain().getByRole('table', { name: 'Recent checkpoints' });
  readonly filtersToggle = () => this.page.getByRole('button', { name: /^Filters/ });
  readonly historyEvents = () => this.page.getByRole('list', { name: /^Events of the / });
  readonly state = () => this.page.getByLabel(/^State of the /);

  async open() {
    await this.page.goto('/settings/audit');
    await expect(this.page.getByRole('heading', { name: 'Events' })).toBeVisible();
  }

  /** Loads older pages until a row with `text` shows (the log is newest first). */
  async findRow(text: string | RegExp) {
    const more = this.page.getByRole('button', { name: 'Load older' });
    await expect(async () => {
      if ((await this.row(text).count()) === 0 && (await more.isVisible())) await more.click();
      await expect(this.row(text).first()).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    return this.row(text).first();
  }

  /** Fills the filter fields named and applies them (opening the Filters disclosure on a phone). */
  async filter(fields: Record<string, string>) {
    if (await this.filtersToggle().isVisible()) {
      if ((await this.filtersToggle().getAttribute('aria-expanded')) !== 'true') await this.filtersToggle().click();
    }
    for (const [label, value] of Object.entries(fields)) await this.page.getByLabel(label, { exact: true }).fill(value);
    await this.page.getByRole('button', { name: 'Apply filters' }).click();
  }

  /** Opens an event's detail and returns the detail row. */
  async openDetail(text: string | RegExp) {
    const row = await this.findRow(text);
    const toggle = row.getByRole('button', { name: /^Details:/ });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    return this.page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
  }
}
