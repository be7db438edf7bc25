/** My Data and the full-page preview, a second entry to the feature: the app loads them on demand. */
export { MyDataLanding, MyDataLayout, SubCategoryPage } from './components/my-data-pages';
export { PreviewPage } from './components/preview-page';
