import { test as base, expect } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { CataloguePage } from './pages/catalogue-page';
import { ConnectRssPage } from './pages/connect-rss-page';
import { ConnectWebsitePage } from './pages/connect-website-page';
import { DrivePage } from './pages/drive-page';
import { FeedsPage } from './pages/feeds-page';
import { NotebooksPage } from './pages/notebooks-page';
import { PreviewPage } from './pages/preview-page';
import { RssTopicsPage } from './pages/rss-topics-page';
import { SearchPage } from './pages/search-page';
import { UserSettingsPage } from './pages/user-settings-page';
import { uniqueUser, type TestUser } from './support/users';

interface Fixtures {
  user: TestUser;
  auth: AuthPages;
  catalogue: CataloguePage;
  shell: AppShell;
  settings: UserSettingsPage;
  connectRss: ConnectRssPage;
  connectWebsite: ConnectWebsitePage;
  drive: DrivePage;
  feeds: FeedsPage;
  notebooks: NotebooksPage;
  preview: PreviewPage;
  rssTopics: RssTopicsPage;
  search: SearchPage;
}

/** Tests get a fresh user of their own and the page objects for the default page. */
export const test = base.extend<Fixtures>({
  /** The default page, failing the test if the app throws an uncaught error. */
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
  user: async ({}, use) => use(uniqueUser()),
  auth: async ({ page }, use) => use(new AuthPages(page)),
  catalogue: async ({ page }, use) => use(new CataloguePage(page)),
  shell: async ({ page }, use) => use(new AppShell(page)),
  settings: async ({ page }, use) => use(new UserSettingsPage(page)),
  connectRss: async ({ page }, use) => use(new ConnectRssPage(page)),
  connectWebsite: async ({ page }, use) => use(new ConnectWebsitePage(page)),
  drive: async ({ page }, use) => use(new DrivePage(page)),
  feeds: async ({ page }, use) => use(new FeedsPage(page)),
  notebooks: async ({ page }, use) => use(new NotebooksPage(page)),
  preview: async ({ page }, use) => use(new PreviewPage(page)),
  rssTopics: async ({ page }, use) => use(new RssTopicsPage(page)),
  search: async ({ page }, use) => use(new SearchPage(page)),
});

export { expect };
