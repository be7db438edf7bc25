/**
 * Groups and comments against the real server, with two people in two browsers: A makes a group
 * with B in it, shares an uploaded document into it and comments with an @mention of B; B's open
 * group page shows the comment without a reload. An edit discarded with Escape changes nothing; a
 * saved one reaches B, and so does the mention's notification. A shared tag and a bookmark made in
 * the group, the group's tags page, the global comments view and B's notifications page follow;
 * B's mention notification opens the document with its thread open and the comment highlighted.
 */
import { randomBytes } from 'node:crypto';
import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { channelPath, ChannelCard, GroupSettingsPage } from './pages/channels-pages';
import { DrivePage } from './pages/drive-page';
import { CardTagControls } from './pages/tags-pages';
import { generatedPdf } from './support/pdf';
import { uniqueUser } from './support/users';
import { expect, test } from './fixtures';

test('a comment with a mention made in a group reaches the other member live; edits, shared tags and bookmarks work in the group', async ({
  browser,
  user,
}) => {
  test.setTimeout(150_000);
  const id = randomBytes(3).toString('hex');
  const other = uniqueUser();
  const pdf = generatedPdf(`group-${id}.pdf`, id);
  const group = `Desk ${id}`;
  const tagName = `Watch ${id}`;
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    const errors: string[] = [];
    pageA.on('pageerror', (e) => errors.push(e.message));
    pageB.on('pageerror', (e) => errors.push(e.message));

    // B signs up first, so A can find them.
    await new AuthPages(pageB).signUp(other);
    await new AppShell(pageB).expectSignedInAt('/feeds/home');
    await new AuthPages(pageA).signUp(user);
    await new AppShell(pageA).expectSignedInAt('/feeds/home');

    // A uploads a document.
    const driveA = new DrivePage(pageA);
    await driveA.open();
    await driveA.uploadFiles([pdf]);
    await driveA.expectUploadStatus(pdf.name, 'COMPLETED', 60_000);
    await expect(driveA.card(pdf.name)).toBeVisible({ timeout: 10_000 });

    // A's group name is checked with the spec's words before the server is asked.
    const settings = new GroupSettingsPage(pageA);
    await settings.openCreate();
    await settings.nameField().fill('desk!');
    await pageA.getByRole('button', { name: 'Create group' }).click();
    await expect(settings.createForm()).toContainText('Sorry, only letters (a-z), numbers (0-9), hyphen (-) and underscore (_) are allowed.');
    await settings.nameField().fill(group);
    await settings.choosePerson(other.username);
    const channelId = await settings.create();
    await expect(settings.members().getByTestId('member-row').filter({ hasText: other.username })).toBeVisible();
    await expect(settings.members().getByRole('combobox', { name: `Role of ${other.username}` })).toHaveValue('member');

    // A shares the document into the group from the drive's card.
    await driveA.open();
    await new ChannelCard(pageA, driveA.card(pdf.name)).shareTo(group);

    // B finds the group in the side navigation and opens it; the document is there.
    await pageB.goto('/feeds/home');
    const navB = new AppShell(pageB).sideNav();
    await navB.getByTestId('nav-group').filter({ hasText: group }).click();
    await expect(pageB).toHaveURL(new RegExp(`${channelPath(channelId)}$`));
    await expect(pageB.locator('h1.page-title')).toHaveText(group);
    const cardB = new ChannelCard(pageB, pageB.getByTestId('document-card').filter({ hasText: pdf.name }));
    await expect(cardB.card).toBeVisible();
    await new AppShell(pageB).expectLive();
    await cardB.openThread();
    await expect(cardB.thread()).toContainText('No comments yet.');
    let reloads = 0;
    pageB.on('load', () => (reloads += 1));

    // A comments with an @mention of B picked from the members.
    await pageA.goto(channelPath(channelId));
    const cardA = new ChannelCard(pageA, pageA.getByTestId('document-card').filter({ hasText: pdf.name }));
    await cardA.openThread();
    await cardA.commentBox().press('Enter');
    await expect(cardA.thread()).toContainText('comment cannot be empty');
    await cardA.commentBox().pressSequentially(`Please review @${other.username.slice(0, 6)}`);
    await pageA.getByRole('option', { name: `@${other.username}` }).click();
    await cardA.commentBox().pressSequentially('today');
    await cardA.commentBox().press('Shift+Enter');
    await cardA.commentBox().pressSequentially('thanks');
    const added = cardA.saved('POST');
    await cardA.commentBox().press('Enter');
    await added;
    await expect(cardA.comments()).toHaveCount(1);
    await expect(cardA.commentBox()).toHaveValue('');

    // B's open thread shows it live, the mention marked.
    await expect(cardB.comments()).toHaveCount(1, { timeout: 10_000 });
    await expect(cardB.comments().first()).toContainText(`Please review @${other.username} today`);
    await expect(cardB.comments().first().locator('mark.mention')).toHaveText(`@${other.username}`);
    await expect(cardB.thread().getByRole('button', { name: 'Edit your comment' })).toHaveCount(0);
    // The mention is a notification for B, counted on the bell without a reload.
    const bellB = pageB.getByTestId('notification-bell');
    await expect(bellB).toHaveAccessibleName('Notifications, 1 unread', { timeout: 10_000 });
    await expect(pageA.getByTestId('notification-bell')).toHaveAccessibleName('Notifications');

    // A's edit discarded with Escape changes nothing; a saved edit reaches B.
    await cardA.comments().first().getByRole('button', { name: 'Edit your comment' }).click();
    const editBox = cardA.thread().getByRole('textbox', { name: 'Edit your comment' });
    await editBox.pressSequentially(' NOT SAVED');
    await editBox.press('Escape');
    await expect(editBox).toHaveCount(0);
    await expect(cardA.comments().first()).not.toContainText('NOT SAVED');
    await cardA.comments().first().getByRole('button', { name: 'Edit your comment' }).click();
    await editBox.press('Control+End');
    await editBox.pressSequentially(' please');
    const edited = cardA.saved('PUT');
    await editBox.press('Enter');
    await edited;
    await expect(cardB.comments().first()).toContainText('thanks please', { timeout: 10_000 });
    await expect(cardB.comments().first()).toContainText('(edited)');

    // A shared tag and a bookmark made on the group's card; the tag reaches B's card.
    const tagsA = new CardTagControls(pageA, cardA.card);
    await tagsA.tagWithNew(tagName);
    await expect(cardA.sharedTag(tagName)).toBeVisible();
    await expect(cardB.sharedTag(tagName)).toBeVisible({ timeout: 10_000 });
    await tagsA.toggleBookmark();
    await tagsA.expectBookmarked(true);
    expect(reloads).toBe(0);

    // B's group tags page filters by the shared tag.
    await pageB.getByRole('navigation', { name: 'Group views' }).getByRole('link', { name: 'Shared tags' }).click();
    await pageB.getByRole('navigation', { name: 'Tag filter' }).getByRole('button', { name: tagName, exact: true }).click();
    await expect(pageB).toHaveURL(/\/tags\?tag_id=/);
    await expect(pageB.getByTestId('document-card').filter({ hasText: pdf.name })).toBeVisible();

    // The global comments view lists the comment with its group.
    await new AppShell(pageB).sideNav().getByRole('link', { name: 'Comments', exact: true }).click();
    await expect(pageB).toHaveURL(/\/needlbox\/comments\/all$/);
    const entry = pageB.getByTestId('comment-entry').filter({ hasText: 'thanks please' });
    await expect(entry).toBeVisible();
    await expect(entry).toContainText(group);

    // B's notifications page says who mentioned them where; marking it read clears the bell.
    await bellB.click();
    await expect(pageB).toHaveURL(/\/notifications$/);
    const mention = pageB.getByTestId('notification').filter({ hasText: `${user.username} mentioned you in ${group}` });
    await expect(mention).toBeVisible();
    await mention.getByRole('button', { name: /^Mark as read/ }).click();
    await expect(mention).toHaveAttribute('data-read', 'true');
    await expect(bellB).toHaveAccessibleName('Notifications');

    // Following it opens the document in the group, its thread open and the comment marked.
    await mention.getByRole('link', { name: `${user.username} mentioned you in ${group}` }).click();
    await expect(pageB).toHaveURL(/\/preview\/channels\/[^?]+\?.*comments=true&comment_id=/);
    const previewB = new ChannelCard(pageB, pageB.locator('article.preview'));
    await expect(previewB.commentsButton()).toHaveAttribute('aria-expanded', 'true');
    const linked = previewB.thread().getByRole('listitem', { name: `Comment by ${user.username}, the one you were linked to` });
    await expect(linked).toHaveAttribute('aria-current', 'true');
    await expect(linked).toContainText('thanks please');
    await expect(linked).toBeFocused();
    await expect(linked).toBeInViewport();
    expect(errors).toEqual([]);
  } finally {
    await first.close();
    await second.close();
  }
});
