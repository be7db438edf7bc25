/**
 * The settings catch-all, a part of the settings feature: any address under /settings without a
 * page of its own shows that nothing is there, among the settings tabs, with the way back to
 * User Settings. The app marks the address unknown around it (the server answers it with 404).
 * This file is the entry the app loads on demand.
 * Depends on: src/components/ui, and the settings feature's tabs.
 */
export { SettingsNotFoundPage } from './components/settings-not-found-page';
