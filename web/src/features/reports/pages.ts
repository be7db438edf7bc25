/** The report pages and overlay body, a second entry to the feature: the app loads them on demand. */
export { ReportOverlayBody } from './components/report-overlay';
export { ReportPage } from './components/report-page';
export { ReportsDashboardPage } from './components/reports-dashboard-page';
