/** The assistant's pages and overlay body, a second entry to the feature: the app loads them on demand. */
export { AskNeedlOverlayBody } from './components/ask-needl-overlay';
export { AskNeedlPage } from './components/ask-needl-page';
export { AskNeedlHistoryPage } from './components/history-page';
