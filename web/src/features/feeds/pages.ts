/** The builder (page and overlay body) and the feeds' settings, a second entry to the feature: the app loads them on demand. */
export { CustomFeedOverlayBody, CustomFeedPage } from './components/custom-feed-views';
export { FeedsSettingsPage } from './components/feeds-settings-page';
