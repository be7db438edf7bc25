import { expect, type Page } from '@playwright/test';
import type { TestPdf } from '../support/pdf';

/** /apps/needldrive: the upload zone, the files on their way, and the drive's documents. */
export class DrivePage {
  constructor(private readonly page: Page) {}

  readonly uploadButton = () => this.page.getByRole('button', { name: 'Upload File(s)' });
  readonly dropZone = () => this.page.getByRole('group', { name: 'Upload files' });
  readonly upload = (name: string) => this.page.getByTestId('upload-item').filter({ hasText: name });
  /** The document card of an uploaded file, found by its file name. */
  readonly card = (name: string) => this.page.getByTestId('document-card').filter({ hasText: name });

  async open(path = '/apps/needldrive') {
    await this.page.goto(path);
    await expect(this.dropZone()).toContainText('Drop files here');
    await expect(this.uploadButton()).toBeEnabled();
  }

  /** Picks files through the button's file chooser, as a person would. */
  async uploadFiles(files: TestPdf[]) {
    const chooser = this.page.waitForEvent('filechooser');
    await this.uploadButton().click();
    await (await chooser).setFiles(files.map((f) => ({ name: f.name, mimeType: 'application/pdf', buffer: f.buffer })));
  }

  /** Opens the drive, uploads `files` and waits until each is extracted. */
  async uploadAndWait(files: TestPdf[]) {
    await this.open();
    await this.uploadFiles(files);
    for (const file of files) await this.expectUploadStatus(file.name, 'COMPLETED', 60_000);
  }

  async expectUploadStatus(name: string, status: string, timeout = 5_000) {
    await expect(this.upload(name)).toHaveAttribute('data-status', status, { timeout });
  }

  async expectRead(name: string, read: boolean, timeout = 5_000) {
    await expect(this.card(name)).toHaveAttribute('data-read', String(read), { timeout });
  }

  /** Opens the preview from the card's title link. */
  async openPreview(name: string) {
    await this.card(name).getByRole('heading').getByRole('link').click();
  }
}
