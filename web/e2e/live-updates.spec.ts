import { AppShell } from './pages/app-shell';
import { AuthPages } from './pages/auth-pages';
import { UserSettingsPage } from './pages/user-settings-page';
import { expect, test } from './fixtures';

test('a preference changed in one browser reaches another of the same user without a reload', async ({ browser, user }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();

    await new AuthPages(pageA).signUp(user);
    await new AppShell(pageA).expectSignedInAt('/feeds/home');
    await new AuthPages(pageB).signIn(user);
    await new AppShell(pageB).expectSignedInAt('/feeds/home');

    const settingsA = new UserSettingsPage(pageA);
    const settingsB = new UserSettingsPage(pageB);
    await settingsA.open();
    await settingsB.open();
    await settingsA.expectAskNeedlPro(false);
    await settingsB.expectAskNeedlPro(false);
    await new AppShell(pageB).expectLive();

    let reloads = 0;
    pageB.on('load', () => (reloads += 1));

    await settingsA.toggleAskNeedlPro();
    await settingsA.expectAskNeedlPro(true);
    await settingsB.expectAskNeedlPro(true, 10_000);

    await settingsA.toggleAskNeedlPro();
    await settingsB.expectAskNeedlPro(false, 10_000);
    expect(reloads).toBe(0);
  } finally {
    await first.close();
    await second.close();
  }
});
