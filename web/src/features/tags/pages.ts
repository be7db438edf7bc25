/** The tags manager, a second entry to the feature: the app loads it on demand. */
export { TagsManager } from './components/tags-manager';
