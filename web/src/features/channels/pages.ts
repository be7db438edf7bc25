/** The group pages, a second entry to the feature: the app loads them on demand. */
export { GroupSettingsPage, GroupsPage, GroupsSettingsPage } from './components/group-settings-page';
