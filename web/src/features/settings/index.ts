/**
 * Settings feature: the settings pages — User Settings (profile, the AskNeedl Pro preference and
 * sign-out), Storage (used against the quota, by file type, from /user/storage) and, for
 * administrators, Assistant (the model server AskNeedl writes with, checked before it is saved,
 * under /admin/assistant). Reads user data through the shared query factories in src/lib/queries.
 * Depends on: src/lib, src/components/ui.
 */
export { UserSettingsPage } from './components/user-settings-page';
export { StoragePage } from './components/storage-page';
export { AssistantSettingsPage } from './components/assistant-settings-page';
/** The tabs between settings pages, for settings pages other features bring (the tags manager). */
export { SettingsNav } from './components/settings-nav';
