import { expect, type Locator, type Page } from '@playwright/test';

/** The group settings pages: creating a group (`create group`) and its members. */
export class GroupSettingsPage {
  constructor(private readonly page: Page) {}

  readonly createForm = () => this.page.getByRole('form', { name: 'Create a group' });
  readonly nameField = () => this.page.getByRole('textbox', { name: 'Group Name' });
  readonly members = () => this.page.getByRole('list', { name: 'Members' });

  async openCreate() {
    await this.page.goto(`/settings/channels/${encodeURIComponent('create group')}`);
    await expect(this.createForm()).toBeVisible();
  }

  /** Picks someone in the people picker by name. */
  async choosePerson(username: string) {
    await this.page.getByRole('searchbox', { name: 'Find people' }).fill(username);
    await this.page.getByRole('checkbox', { name: new RegExp(username) }).check();
  }

  /** Submits the create form; returns the new group's id once the server has it. */
  async create(): Promise<string> {
    const created = this.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/channels' && r.request().method() === 'POST');
    await this.page.getByRole('button', { name: 'Create group' }).click();
    const response = await created;
    expect(response.ok()).toBe(true);
    const body = (await response.json()) as { channel: { id: string } };
    await expect(this.page).toHaveURL(/\/settings\/channels\/[^/]+\/members$/);
    return body.channel.id;
  }
}

/** A document card: Add to group, the comments button and its thread. */
export class ChannelCard {
  constructor(
    private readonly page: Page,
    readonly card: Locator,
  ) {}

  readonly commentsButton = () => this.card.getByTestId('comments-button');
  readonly thread = () => this.card.getByRole('region', { name: /^Comments on/ });
  readonly commentBox = () => this.thread().getByRole('textbox', { name: /^Comment on/ });
  readonly comments = () => this.thread().getByTestId('comment');
  readonly sharedTag = (name: string) => this.card.getByTestId('card-tags').getByText(name, { exact: true });

  async shareTo(group: string) {
    await this.card.getByRole('button', { name: /^Add to group/ }).click();
    const shared = this.page.waitForResponse((r) => /\/api\/channels\/[^/]+\/items$/.test(new URL(r.url()).pathname) && r.ok());
    await this.page.getByRole('dialog', { name: /to a group$/ }).getByRole('button', { name: group }).click();
    await shared;
  }

  async openThread() {
    await this.commentsButton().click();
    await expect(this.thread()).toBeVisible();
  }

  /** Waits for a comment save (POST for a new one, PUT for an edit) the server accepted. */
  saved(method: 'POST' | 'PUT') {
    return this.page.waitForResponse(
      (r) => /\/api\/channels\/[^/]+\/comments\//.test(new URL(r.url()).pathname) && r.request().method() === method && r.ok(),
    );
  }
}

export const channelPath = (channelId: string) => `/channels/${encodeURIComponent(channelId)}`;
