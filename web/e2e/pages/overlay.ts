import type { Page } from '@playwright/test';

/** The right-side overlay panel. */
export class OverlayPanel {
  constructor(private readonly page: Page, private readonly title: string) {}

  readonly panel = () => this.page.getByRole('complementary', { name: this.title });
  readonly closeButton = () => this.panel().getByRole('button', { name: 'Close overlay' });
  readonly expandButton = () => this.panel().getByRole('button', { name: /Expand|Collapse/ });
}
