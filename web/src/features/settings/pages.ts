/** The settings pages, a second entry to the feature: the app loads them on demand. */
export { UserSettingsPage } from './components/user-settings-page';
export { StoragePage } from './components/storage-page';
export { PlanPage } from './components/plan-page';
export { UsersPage } from './components/users-page';
export { AssistantSettingsPage } from './components/assistant-settings-page';
export { OutboxPage } from './components/outbox-page';
