/**
 * The upload panel, a second entry to the uploads feature: the drive page loads it on demand,
 * while the shell takes only the provider and indicator from `index.ts` at start-up.
 */
export { UploadPanel } from './components/upload-panel';
