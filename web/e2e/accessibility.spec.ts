/**
 * Quality gates over the main pages: a signed-up user with a little content (an uploaded PDF, a
 * notebook with a note, a group) walks every main page; on each, axe-core finds no violation of
 * serious or critical impact, and full-page screenshots are kept at a laptop, a tablet and a
 * phone size in web/screenshots/<database>/ (CI keeps them with the checkout; scripts/test
 * prints the folder).
 */
import AxeBuilder from '@axe-core/playwright';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { AskNeedlPage } from './pages/ask-needl-page';
import { GroupSettingsPage } from './pages/channels-pages';
import { generatedPdf } from './support/pdf';
import { expect, test } from './fixtures';

const SCREENSHOTS = fileURLToPath(new URL(`../screenshots/${process.env.DATABASE_URL ? 'postgres' : 'sqlite'}/`, import.meta.url));
const VIEWPORTS = [
  { name: 'laptop', width: 1366, height: 860 },
  { name: 'tablet', width: 820, height: 1180 },
  { name: 'phone', width: 390, height: 844 },
] as const;
/** The size the walk checks at, and returns to after each page's screenshots. */
const DESKTOP = { width: 1280, height: 800 };

interface Violation {
  page: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Checks one page with axe-core and keeps its screenshots. `ready` is what shows once the page
 * has its content; loading indicators must be gone too.
 */
class Walk {
  readonly violations: Violation[] = [];
  readonly checked: string[] = [];

  constructor(private readonly page: Page) {
    mkdirSync(SCREENSHOTS, { recursive: true });
  }

  async check(name: string, ready: Locator, { screenshots = true } = {}) {
    await expect(ready).toBeVisible({ timeout: 15_000 });
    await this.settled();
    const results = await new AxeBuilder({ page: this.page }).analyze();
    for (const v of results.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      this.violations.push({
        page: name,
        rule: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      });
    }
    this.checked.push(name);
    // Said as they are found too, so a walk cut short still tells what it saw.
    const found = this.violations.filter((v) => v.page === name);
    if (found.length) console.log(Walk.describe(found));
    if (!screenshots) return;
    for (const viewport of VIEWPORTS) {
      await this.page.setViewportSize(viewport);
      await this.settled();
      await this.page.screenshot({ path: `${SCREENSHOTS}${name}-${viewport.name}.png`, fullPage: true, animations: 'disabled' });
    }
    await this.page.setViewportSize(DESKTOP);
  }

  /** Waits until no spinner or busy region is left and fonts are in. */
  private async settled() {
    await expect(this.page.locator('.spinner, [aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
    await this.page.evaluate(() => document.fonts.ready.then(() => undefined));
  }

  static describe(violations: Violation[]): string {
    return violations
      .map((v) => `${v.page}: ${v.rule} (${v.impact}) ${v.help}\n${v.targets.map((t) => `    ${t}`).join('\n')}`)
      .join('\n');
  }
}

test('every main page has no serious or critical accessibility violation, and is pictured at three sizes', async ({
  page,
  auth,
  shell,
  user,
  drive,
  notebooks,
  preview,
  search,
  settings,
}) => {
  // Over 30 pages, each checked and pictured at three sizes: about three minutes beside another
  // worker on two cores.
  test.setTimeout(300_000);
  const walk = new Walk(page);
  const tag = randomBytes(3).toString('hex');
  const heading = (name: string | RegExp, level?: number) => page.getByRole('heading', { name, level });

  // Signed out.
  await page.goto('/auth/signin');
  await walk.check('sign-in', heading('Sign in'));
  await page.goto('/auth/platform-access');
  await walk.check('sign-up', page.getByRole('button', { name: 'Create account' }));

  await auth.signUp(user);
  await shell.expectSignedInAt('/feeds/home');
  await walk.check('my-data-empty', shell.title());

  // A little content: a PDF in the drive, a notebook with a note, a group.
  const file = generatedPdf(`gates-${tag}.pdf`, `gates${tag}`);
  await drive.open();
  await drive.uploadFiles([file]);
  await drive.expectUploadStatus(file.name, 'COMPLETED', 60_000);
  await walk.check('drive', drive.card(file.name));

  await page.goto('/feeds/home');
  await expect(page).toHaveURL(/\/feeds\/home\/drives$/);
  await walk.check('my-data-drives', drive.card(file.name));
  await drive.openPreview(file.name);
  await preview.expectPdfDrawn();
  await walk.check('preview', preview.title());
  await page.goto('/feeds/home/rss_news');
  await walk.check('my-data-rss', shell.title());

  await page.goto(`/search?q=gates${tag}`);
  await search.expectResults([`Quarterly review gates${tag}`]);
  await walk.check('search', search.range());

  await notebooks.open();
  await walk.check('notebooks-empty', notebooks.newNotebookField());
  await notebooks.createNotebook(`Gates ${tag}`);
  await notebooks.newNote();
  await notebooks.noteTitle().fill(`Quality note ${tag}`);
  await notebooks.noteText().click();
  await page.keyboard.type('A short note to check the editor.');
  await notebooks.expectSaved();
  await walk.check('notebook-note', notebooks.editor());

  const groups = new GroupSettingsPage(page);
  await groups.openCreate();
  await walk.check('group-create', groups.createForm());
  await groups.nameField().fill(`Gates ${tag}`);
  const groupId = await groups.create();
  await walk.check('group-members', groups.members());
  await page.goto('/channels');
  await walk.check('groups', shell.title());
  await page.goto(`/channels/${encodeURIComponent(groupId)}`);
  await walk.check('group', shell.title());

  await page.goto('/feeds/home/drives');
  const ask = new AskNeedlPage(page);
  await ask.openOverlay();
  await walk.check('ask-needl-panel', ask.question());
  await page.goto('/ask-needl/full');
  await walk.check('ask-needl-full', ask.question());

  await page.goto('/needlbox/tags/all');
  await walk.check('tagged', shell.title());
  await page.goto('/needlbox/bookmarks/all');
  await walk.check('bookmarks', shell.title());
  await page.goto('/settings/manage-tags');
  await walk.check('manage-tags', shell.title());

  await page.goto('/managers/report_generation/dashboard');
  await walk.check('reports', page.getByRole('button', { name: 'New report' }));
  await page.getByRole('button', { name: 'New report' }).click();
  await walk.check('new-report', page.getByRole('dialog', { name: 'New report' }), { screenshots: false });

  await page.goto('/custom-feed?type=custom-feed&page=select-feed-type');
  await walk.check('feed-builder', heading('New feed'));
  await page.getByRole('button', { name: /Keyword feed/ }).click();
  await walk.check('feed-builder-keywords', page.getByRole('textbox', { name: 'Feed name' }));

  await page.goto('/connect');
  await walk.check('connect', shell.title());
  await page.goto('/connect/rss');
  await walk.check('connect-rss', shell.title());
  await page.goto('/connect/website');
  await walk.check('connect-website', shell.title());
  await page.goto('/connect/edgar');
  await walk.check('connect-edgar', page.getByRole('combobox', { name: 'Company' }));
  await page.goto('/connect/public');
  await walk.check('connect-public', page.getByRole('list', { name: 'Public sources' }));

  for (const path of ['user-settings', 'storage', 'feeds', 'contacts', 'channels']) {
    await page.goto(`/settings/${path}`);
    await walk.check(`settings-${path}`, shell.title());
  }
  // The dialog that erases the account, pictured on a phone too; closed again, as the walk goes on.
  await page.goto('/settings/user-settings');
  await settings.openEraseAccount();
  await walk.check('settings-erase-account', settings.erasePassword());
  await page.keyboard.press('Escape');
  await expect(settings.eraseDialog()).toBeHidden();

  await page.goto('/notifications');
  await walk.check('notifications', shell.title());
  await page.goto('/no/such/page');
  await walk.check('not-found', heading('Page not found'));

  expect(walk.violations, `serious or critical accessibility violations:\n${Walk.describe(walk.violations)}`).toEqual([]);
  expect(walk.checked.length).toBeGreaterThanOrEqual(30);
});
