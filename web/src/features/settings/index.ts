/**
 * Settings feature: the settings pages, starting with User Settings (profile, the AskNeedl Pro
 * preference and sign-out). Reads user data through the shared query factories in src/lib/queries.
 * Depends on: src/lib, src/components/ui.
 */
export { UserSettingsPage } from './components/user-settings-page';
