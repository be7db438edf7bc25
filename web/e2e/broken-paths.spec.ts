/**
 * Paths a newcomer used to hit a dead end on, against the real server: a note found by search
 * opens the note (not a document preview that cannot find it), a notebook being created is never
 * asked for by its stand-in id, My Data's Notes tab counts the notes, and the AskNeedl history
 * page lists conversations before one is picked.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from './fixtures';

const tag = () => randomBytes(3).toString('hex');

test('a note found by search opens the note, and My Data counts it', async ({ page, auth, shell, user, notebooks, search, feeds }) => {
  test.setTimeout(90_000);
  const id = tag();
  const word = `quillwort${id}`;
  const notebookCalls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/notebook/')) notebookCalls.push(pathname);
  });

  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await notebooks.open();
  await notebooks.createNotebook(`Field notes ${id}`);
  // The notebook was asked for by the server's id alone, never by the one shown while it was made.
  expect(notebookCalls.filter((path) => path.includes('pending-'))).toEqual([]);

  await notebooks.newNote();
  await notebooks.noteTitle().fill(`Marsh survey ${id}`);
  await notebooks.noteText().click();
  await page.keyboard.type(`Found ${word} along the northern bank`);
  await notebooks.expectSaved();
  // A second note, left empty: it is a note as soon as the server has made it.
  await notebooks.newNote();
  await expect(notebooks.notes()).toHaveCount(2);

  await feeds.open('/feeds/home/notes');
  await feeds.expectTab('notes', { connected: true, count: 2 });
  await expect(page.getByRole('link', { name: 'Open Notebooks' })).toHaveAttribute('href', '/notebooks');

  await page.goto(`/search/notes?q=${word}`);
  await search.expectResults([`Marsh survey ${id}`]);
  await search.result(`Marsh survey ${id}`).getByRole('link', { name: `Marsh survey ${id}` }).click();
  await expect(page).toHaveURL(/\/preview\/needl_notebooks\/[^/?]+$/);
  await expect(notebooks.notePreview().getByRole('heading', { name: `Marsh survey ${id}` })).toBeVisible();
  await expect(notebooks.notePreview()).toContainText(word);
  await expect(page.getByText('This document cannot be found')).toHaveCount(0);
});

test('the AskNeedl history page lists conversations before one is picked', async ({ page, auth, shell, user }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await page.goto('/ask-needl/history');
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pick a conversation' })).toBeVisible();
  await expect(page.getByText('This conversation could not be opened')).toHaveCount(0);
});
