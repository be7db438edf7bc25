/** The search page, a second entry to the feature: the app loads it on demand. */
export { SearchPage } from './components/search-page';
