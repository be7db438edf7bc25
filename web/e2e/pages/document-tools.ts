import type { Page } from '@playwright/test';

/** A document's Summarize and Extract tables actions (in the preview), and the tables dialog. */
export class DocumentTools {
  constructor(private readonly page: Page) {}

  readonly actions = () => this.page.locator('article.preview');
  /** The summary button, whatever it reads now (Summarize, Summarizing, View Summary). */
  readonly summaryButton = (label: 'Summarize' | 'Summarizing' | 'View Summary') =>
    this.actions().getByRole('button', { name: new RegExp(`^${label} `) });
  readonly tablesButton = () => this.actions().getByRole('button', { name: /^Extract tables from / });
  readonly tablesDialog = () => this.page.getByRole('dialog', { name: 'Tables in this document' });
  /** One table of the dialog, by the name it shows ("Table 1 · page 1"). */
  readonly table = (name: string) => this.tablesDialog().getByRole('table', { name, exact: true });
}
