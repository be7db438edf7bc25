/** The notifications page, a second entry to the feature: the app loads it on demand. */
export { NotificationsPage } from './components/notifications-page';
