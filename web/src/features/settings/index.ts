/**
 * Settings feature: the settings pages — User Settings (profile, the AskNeedl Pro preference and
 * sign-out) and Storage (used against the quota, by file type, from /user/storage). Reads user
 * data through the shared query factories in src/lib/queries.
 * Depends on: src/lib, src/components/ui.
 */
export { UserSettingsPage } from './components/user-settings-page';
export { StoragePage } from './components/storage-page';
/** The tabs between settings pages, for settings pages other features bring (the tags manager). */
export { SettingsNav } from './components/settings-nav';
