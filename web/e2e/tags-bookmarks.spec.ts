/**
 * Tags and bookmarks against the real server, in two browsers of the same user: a bookmark and a
 * new tag made on a card in one reach the same card in the other without a reload, a rename in
 * the tags manager reaches the cards, and the bookmarks and tags pages list the document.
 */
import { randomBytes } from 'node:crypto';
import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { DrivePage } from './pages/drive-page';
import { CardTagControls, ManageTagsPage, TaggedListsPage } from './pages/tags-pages';
import { generatedPdf } from './support/pdf';
import { expect, test } from './fixtures';

test('a bookmark and a tag made in one browser reach another of the same user live; a rename reaches the cards; the bookmarks page lists it', async ({
  browser,
  user,
}) => {
  test.setTimeout(120_000);
  const id = randomBytes(3).toString('hex');
  const pdf = generatedPdf(`tagged-${id}.pdf`, id);
  const tagName = `Risk ${id}`;
  const renamed = `Credit ${id}`;
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    const errors: string[] = [];
    pageA.on('pageerror', (e) => errors.push(e.message));
    pageB.on('pageerror', (e) => errors.push(e.message));

    await new AuthPages(pageA).signUp(user);
    await new AppShell(pageA).expectSignedInAt('/feeds/home');
    const driveA = new DrivePage(pageA);
    await driveA.open();
    await driveA.uploadFiles([pdf]);
    await driveA.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);
    await expect(driveA.card(pdf.name)).toBeVisible({ timeout: 10_000 });

    await new AuthPages(pageB).signIn(user);
    await new AppShell(pageB).expectSignedInAt('/feeds/home/drives');
    const driveB = new DrivePage(pageB);
    await driveB.open();
    await expect(driveB.card(pdf.name)).toBeVisible();
    await new AppShell(pageB).expectLive();
    const cardA = new CardTagControls(pageA, driveA.card(pdf.name));
    const cardB = new CardTagControls(pageB, driveB.card(pdf.name));
    await cardB.expectBookmarked(false);
    let reloads = 0;
    pageB.on('load', () => (reloads += 1));

    // Bookmarked in A: B's card shows it.
    await cardA.toggleBookmark();
    await cardA.expectBookmarked(true);
    await cardB.expectBookmarked(true, 10_000);

    // A new tag made in A's picker: it is on A's card at once and reaches B's.
    await cardA.tagWithNew(tagName);
    await cardA.expectTag(tagName);
    await cardB.expectTag(tagName, 10_000);

    // Renamed in A's tags manager: B's card takes the new name.
    const manage = new ManageTagsPage(pageA);
    await manage.open();
    await manage.rename(tagName, renamed);
    await cardB.expectTag(renamed, 10_000);
    await expect(cardB.chip(tagName)).toHaveCount(0);
    expect(reloads).toBe(0);

    // B's bookmarks page (through the side navigation, still without a reload) lists the document.
    await new AppShell(pageB).sideNav().getByRole('link', { name: 'Bookmarks', exact: true }).click();
    await expect(pageB).toHaveURL(/\/needlbox\/bookmarks\/all$/);
    const listsB = new TaggedListsPage(pageB);
    await expect(listsB.card(pdf.name)).toBeVisible();
    // Delete is hidden on the bookmarks view.
    await expect(listsB.card(pdf.name).getByRole('button', { name: /^Delete/ })).toHaveCount(0);

    // The card's tag leads to the tags page, filtered to that tag.
    await new CardTagControls(pageB, listsB.card(pdf.name)).chip(renamed).click();
    await expect(pageB).toHaveURL(/\/needlbox\/tags\/all\?tag_id=/);
    await listsB.expectFilter(renamed);
    await expect(listsB.card(pdf.name)).toBeVisible();
    expect(reloads).toBe(0);

    // A takes the bookmark off on its bookmarks page: it leaves A's list, and B's card shows it off.
    const listsA = new TaggedListsPage(pageA);
    await listsA.openBookmarks();
    await new CardTagControls(pageA, listsA.card(pdf.name)).toggleBookmark();
    await expect(listsA.card(pdf.name)).toHaveCount(0);
    await new CardTagControls(pageB, listsB.card(pdf.name)).expectBookmarked(false, 10_000);
    expect(errors).toEqual([]);
  } finally {
    await first.close();
    await second.close();
  }
});
