import { expect, type Page } from '@playwright/test';

/** /notebooks: the shelf, the open notebook's notes, and the note editor. */
export class NotebooksPage {
  constructor(private readonly page: Page) {}

  readonly shelf = () => this.page.getByRole('list', { name: 'Your notebooks' });
  readonly notebook = (name: string) => this.shelf().getByTestId('notebook-item').filter({ hasText: name });
  readonly newNotebookField = () => this.page.getByLabel('New notebook');
  readonly notes = () => this.page.getByRole('list', { name: 'Notes' }).getByTestId('note-item');
  readonly note = (name: string | RegExp) => this.notes().filter({ hasText: name });
  readonly editor = () => this.page.getByTestId('note-editor');
  readonly noteTitle = () => this.editor().getByRole('textbox', { name: 'Note title' });
  readonly noteText = () => this.editor().getByRole('textbox', { name: 'Note text' });
  readonly tool = (name: string) => this.editor().getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name });
  readonly saveStatus = () => this.editor().getByTestId('save-status');
  readonly conflict = () => this.editor().getByRole('alert');
  /** A note's read-only preview (/preview/needl_notebooks/{id}). */
  readonly notePreview = () => this.page.getByTestId('note-preview');

  async open() {
    await this.page.goto('/notebooks');
    await expect(this.newNotebookField()).toBeVisible();
  }

  /** Creates a notebook and waits until it is the open one. */
  async createNotebook(name: string) {
    await this.newNotebookField().fill(name);
    await this.page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(this.page.getByRole('heading', { name, level: 2 })).toBeVisible();
  }

  async newNote() {
    await this.page.getByRole('button', { name: 'New note' }).click();
    await expect(this.noteTitle()).toBeVisible();
  }

  /** Waits until the editor's edits are saved: the save went out and the label says so. */
  async expectSaved(timeout = 10_000) {
    await expect(this.saveStatus()).toHaveAttribute('data-status', 'saved', { timeout });
  }

  async openNote(name: string | RegExp) {
    await this.note(name).getByRole('button').first().click();
    await expect(this.editor()).toBeVisible();
  }
}
