/**
 * Search against the real server: two uploaded PDFs are found by a word in them from the
 * header's box, with the word marked in their highlights, "x to y of N results", a sort that
 * goes through the address and the call, and a card that opens the preview at its passage's
 * page; a nonsense query finds nothing, and an unbalanced parenthesis is refused with the spec's
 * message by the search box.
 */
import { randomBytes } from 'node:crypto';
import { writePdf, type TestPdf } from './support/pdf';
import { expect, test } from './fixtures';

const pdf = (name: string, title: string, lines: string[]): TestPdf => ({
  name,
  buffer: writePdf(title, [title, ...lines]),
  origin: 'generated',
});

test('a word in uploaded files is found from the header, marked, paged, sorted, and opens the preview', async ({
  page,
  auth,
  shell,
  user,
  drive,
  search,
  preview,
}) => {
  test.setTimeout(120_000);
  const tag = randomBytes(3).toString('hex');
  // A made-up word only these files hold, so the user's search finds exactly them.
  const word = `marmalade${tag}`;
  const titles = [`Harbour levies ${tag}`, `Port fees ${tag}`];
  const files = [
    pdf(`levies-${tag}.pdf`, titles[0], [`New levies on ${word} imports took effect.`, 'Shipping lines passed them on.']),
    pdf(`fees-${tag}.pdf`, titles[1], [`The ${word} tariff was cut by half.`, 'Importers welcomed the change.']),
  ];

  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await drive.open();
  await drive.uploadFiles(files);
  for (const file of files) await drive.expectUploadStatus(file.name, 'COMPLETED', 60_000);

  await page.goto('/feeds/home');
  // With a file in the drive, My Data lands on Drives.
  await expect(page).toHaveURL(/\/feeds\/home\/drives$/);
  await search.searchFromHeader(word);
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}$`));
  await expect(search.heading()).toHaveText(`"${word}" in My Data`);
  await search.expectResults(titles);

  const card = search.result(titles[0]);
  await expect(card.locator('em', { hasText: word })).toBeVisible();
  // Dated by publication, else by when Needl recorded the file.
  await expect(card.locator('time')).toBeVisible();
  await expect(search.results()).toHaveCount(2);
  await expect(search.range()).toHaveText('1 to 2 of 2 results');
  await expect(search.tab('all')).toHaveAttribute('aria-current', 'page');
  await expect(search.tab('all')).toContainText('2');

  // The sort goes into the address and the call; both files are still found.
  const sorted = search.nextResultsCall();
  await search.sort().selectOption({ label: 'Oldest first' });
  expect(await sorted).toMatchObject({ q: word, sort: 'dateAsc', sort_order: 'asc', start_from: 0, num_docs: 10 });
  await expect(page).toHaveURL(/[?&]sort=dateAsc(&|$)/);
  await expect(search.results()).toHaveCount(2);
  await expect(search.range()).toHaveText('1 to 2 of 2 results');

  // Back and forward give the same searches.
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=/);
  await expect(search.sort()).toHaveValue('relevance');
  await page.goForward();
  await expect(search.sort()).toHaveValue('dateAsc');

  // The card opens the preview, at its passage's page for a PDF.
  await card.getByRole('heading').getByRole('link').click();
  await preview.expectShowing(titles[0], 'apps');
  await expect(page).toHaveURL(/[?&]access_key=/);
  await expect(page).toHaveURL(/[?&]page=1(&|$)/);
  await preview.expectPdfDrawn();
});

test('nonsense finds nothing, and an unbalanced parenthesis is refused by the search box', async ({ page, auth, shell, user, search }) => {
  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');

  await search.searchFromHeader(`qzxwvjkplm${randomBytes(3).toString('hex')}`);
  await expect(search.noResults()).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('link', { name: /How search works/ })).toBeVisible();
  await expect(search.range()).toHaveCount(0);

  await search.searchFor('(tariffs');
  await expect(page).toHaveURL(/[?&]q=%28tariffs(&|$)/);
  await expect(search.error()).toHaveText('Invalid keyword. Paranthesis are imbalanced.');
  await expect(search.box()).toHaveAttribute('aria-invalid', 'true');
  await expect(search.results()).toHaveCount(0);

  // Fixing the query clears the message.
  await search.searchFor('tariffs');
  await expect(search.error()).toHaveCount(0);
  await expect(search.noResults()).toBeVisible();
});
