import { expect, type Page } from '@playwright/test';

/** AskNeedl: the floating Ask button, the chat (overlay or full page) and the history page. */
export class AskNeedlPage {
  constructor(private readonly page: Page) {}

  readonly askButton = () => this.page.getByTestId('ask-button');
  readonly overlay = () => this.page.getByRole('complementary', { name: 'AskNeedl' });
  readonly question = () => this.page.getByRole('textbox', { name: 'Your question' });
  readonly answers = () => this.page.getByTestId('ask-answer');
  readonly lastAnswer = () => this.answers().last();
  readonly citations = () => this.lastAnswer().getByTestId('citation');
  readonly popover = () => this.page.getByTestId('citation-popover');
  readonly newChat = () => this.page.getByRole('button', { name: 'New chat' });
  readonly sessions = () => this.page.getByTestId('ask-session');

  async openOverlay() {
    await this.askButton().click();
    await expect(this.overlay()).toBeVisible();
    await expect(this.page).toHaveURL(/[?&]overlay-type=ask-needl/);
  }

  /** Asks a question and waits until its answer is done (copy shows under it). */
  async ask(question: string, timeout = 30_000) {
    const asked = this.page.waitForResponse((r) => r.url().endsWith('/api/ml/ask-needl') && r.request().method() === 'POST');
    await this.question().fill(question);
    await this.question().press('Enter');
    expect((await asked).status()).toBe(200);
    await expect(this.lastAnswer().getByRole('button', { name: 'Copy' })).toBeVisible({ timeout });
  }
}
