/** The audit pages, a second entry to the feature: the app loads them on demand. */
export { AggregateHistoryPage } from './components/aggregate-history-page';
export { AuditLogPage } from './components/audit-log-page';
