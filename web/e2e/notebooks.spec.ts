/**
 * Notebooks and notes against the real server: a note written with a heading and a list comes
 * back intact after a reload; Add to Notes turns a card into a snippet note with its source;
 * and a second browser of the same user sees the shelf change live, takes a newer copy of a note
 * it has not touched, and is told of a conflict (never overwritten) when it had edits of its own.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { NotebooksPage } from './pages/notebooks-page';
import { generatedPdf } from './support/pdf';
import { expect, test } from './fixtures';

const tag = () => randomBytes(3).toString('hex');

test('a note written with a heading and a list is found again, intact, after a reload', async ({
  page,
  auth,
  shell,
  user,
  notebooks,
}) => {
  const id = tag();
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await notebooks.open();
  await expect(page.getByTestId('notebooks-empty')).toHaveText('Please create a Notebook');

  // A blank name is refused with the spec's words, a name in use with the server's.
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(notebooks.newNotebookField()).toHaveAccessibleDescription('Please create a Notebook');
  await notebooks.createNotebook(`Research ${id}`);
  await notebooks.newNotebookField().fill(`research ${id}`.toUpperCase());
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(notebooks.newNotebookField()).toHaveAccessibleDescription(/already have a notebook named/i);
  await notebooks.newNotebookField().fill('');

  await notebooks.newNote();
  await notebooks.noteTitle().fill(`Plan ${id}`);
  await notebooks.noteText().click();
  // A tool hands focus back to the text on the next frame: type once it is there.
  await notebooks.tool('H2 heading').click();
  await expect(notebooks.noteText()).toBeFocused();
  await page.keyboard.type('Goals');
  await page.keyboard.press('Enter');
  await notebooks.tool('Bullet list').click();
  await expect(notebooks.noteText()).toBeFocused();
  await page.keyboard.type('hire two analysts');
  await page.keyboard.press('Enter');
  await page.keyboard.type('ship the notes page');
  await expect(notebooks.saveStatus()).toHaveText('Saving…');
  await notebooks.expectSaved();

  await page.reload();
  await expect(notebooks.noteTitle()).toHaveValue(`Plan ${id}`);
  await expect(notebooks.noteText().getByRole('heading', { level: 2 })).toHaveText('Goals');
  await expect(notebooks.noteText().locator('ul > li')).toHaveText(['hire two analysts', 'ship the notes page']);
  await expect(notebooks.note(`Plan ${id}`)).toContainText('Goals');

  // The read-only preview shows it the same way.
  await notebooks.note(`Plan ${id}`).getByRole('link', { name: /Preview/ }).click();
  await expect(page).toHaveURL(/\/preview\/needl_notebooks\//);
  const preview = page.getByTestId('note-preview');
  await expect(preview.getByRole('heading', { name: `Plan ${id}` })).toBeVisible();
  await expect(preview.getByRole('heading', { name: 'Goals', level: 2 })).toBeVisible();
  await expect(preview.locator('ul > li')).toHaveText(['hire two analysts', 'ship the notes page']);
});

test('Add to Notes turns a card into a snippet note that links back to its source', async ({
  page,
  auth,
  shell,
  user,
  drive,
  notebooks,
}) => {
  test.setTimeout(90_000);
  const id = tag();
  const pdf = generatedPdf(`notes-${id}.pdf`, id);
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await drive.open();
  await drive.uploadFiles([pdf]);
  await drive.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);
  await expect(drive.card(pdf.name)).toBeVisible({ timeout: 10_000 });

  await drive.card(pdf.name).getByRole('button', { name: /^Add to Notes/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to Notes' });
  await expect(dialog.getByText('Please create a Notebook')).toBeVisible();
  await dialog.getByLabel('Or a new notebook').fill(`Reading ${id}`);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog.getByRole('radio', { name: `Reading ${id}` })).toBeChecked();
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Note created successfully!' })).toBeVisible();

  await notebooks.open();
  const snippet = notebooks.note(`Quarterly review ${id}`);
  await expect(snippet).toHaveAttribute('data-kind', 'snippet');
  await expect(snippet.getByTestId('snippet-source')).toContainText(`Source: Quarterly review ${id}`);
  await notebooks.openNote(`Quarterly review ${id}`);
  await expect(notebooks.editor().getByTestId('snippet-source').getByRole('link')).toHaveAttribute('href', /^\/preview\/apps\//);
  await expect(notebooks.noteText().getByRole('link', { name: `Quarterly review ${id}` })).toBeVisible();

  await notebooks.editor().getByTestId('snippet-source').getByRole('link').click();
  await expect(page).toHaveURL(/\/preview\/apps\//);
  await expect(page.locator('#preview-title')).toHaveText(`Quarterly review ${id}`);
});

/** Signs the user in on a page of their second browser and opens the notebooks there. */
async function secondBrowser(page: Page, user: Parameters<AuthPages['signIn']>[0]) {
  await new AuthPages(page).signIn(user);
  await new AppShell(page).expectSignedInAt('/feeds/home');
  const notebooks = new NotebooksPage(page);
  return notebooks;
}

test("another browser of the owner sees notes change live, and its own unsaved edits are never overwritten", async ({
  browser,
  user,
}) => {
  test.setTimeout(90_000);
  const id = tag();
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    await new AuthPages(pageA).signUp(user);
    await new AppShell(pageA).expectSignedInAt('/feeds/home');
    const a = new NotebooksPage(pageA);
    const b = await secondBrowser(pageB, user);
    await a.open();
    await b.open();
    await new AppShell(pageB).expectLive();

    // The shelf and the notebook's notes follow the other browser.
    await a.createNotebook(`Shared ${id}`);
    await expect(b.notebook(`Shared ${id}`)).toBeVisible({ timeout: 10_000 });
    await a.newNote();
    await a.noteTitle().fill(`Live ${id}`);
    await a.expectSaved();
    await b.notebook(`Shared ${id}`).getByRole('button').first().click();
    await b.openNote(`Live ${id}`);

    // B has touched nothing: A's saved words simply appear there.
    await a.noteText().click();
    await pageA.keyboard.type('from A');
    await a.expectSaved();
    await expect(b.noteText()).toHaveText('from A', { timeout: 10_000 });

    // B types while A saves a newer version first: B is told, and nothing of A's is overwritten.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await pageB.route('**/api/note/*', async (route) => {
      if (route.request().method() === 'PUT') await held;
      await route.continue();
    });
    await b.noteText().click();
    await pageB.keyboard.press('End');
    await pageB.keyboard.type(' and B');
    await expect(b.saveStatus()).toHaveText('Saving…');
    await a.noteText().click();
    await pageA.keyboard.press('End');
    await pageA.keyboard.type(' again');
    await a.expectSaved();
    release();
    await expect(b.conflict()).toContainText('changed somewhere else', { timeout: 10_000 });
    await expect(b.noteText()).toContainText('and B');

    await b.conflict().getByRole('button', { name: 'Reload latest' }).click();
    await expect(b.noteText()).toHaveText('from A again');
    await expect(b.conflict()).toHaveCount(0);
    await pageA.reload();
    await expect(a.noteText()).toHaveText('from A again');
  } finally {
    await first.close();
    await second.close();
  }
});
