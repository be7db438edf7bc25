/**
 * Query keys for research reports, from general to specific. They live here rather than in the
 * reports feature because the live-event mapping (src/lib) refreshes them on report events.
 */
export const reportKeys = {
  all: () => ['reports'] as const,
  /** The user's reports (the dashboard). */
  list: () => [...reportKeys.all(), 'list'] as const,
  details: () => [...reportKeys.all(), 'detail'] as const,
  /** One report: its result, files and sections. */
  report: (reportId: string) => [...reportKeys.details(), reportId] as const,
  /** The report types with their limits and outlines. */
  config: () => [...reportKeys.all(), 'config'] as const,
  /** The feeds a report may read (the user's custom feeds, as the new-report form lists them). */
  feeds: () => [...reportKeys.all(), 'feeds'] as const,
};
