/** How reports are written on screen and saved: labels, time taken, the raw-data download. */
import type { ReportOutput } from './api/report-api';

/** The spec's type mapping: two types are shown under other keys; anything else is unknown. */
const SHOWN_AS: Record<string, string> = {
  maintenance_coverage: 'maintenance_coverage',
  credit_report: 'credit_rating',
  initiation_coverage: 'initiation_coverage',
  open_research: 'custom_research',
  drhp_report: 'drhp_report',
};

const LABELS: Record<string, string> = {
  maintenance_coverage: 'Maintenance coverage',
  credit_rating: 'Credit rating',
  initiation_coverage: 'Initiation coverage',
  custom_research: 'Custom research',
  drhp_report: 'Draft offering document',
  unknown_report_type: 'Unknown type',
};

/** Returns the key a report type is shown under (`credit_report` → `credit_rating`). */
export const shownAs = (reportType: string): string => SHOWN_AS[reportType] ?? 'unknown_report_type';

/** Returns a report type's label for people. */
export const typeLabel = (reportType: string): string => LABELS[shownAs(reportType)];

const STATUS_LABELS: Record<string, string> = {
  DRAFT: 'Draft',
  QUEUED: 'Queued',
  RUNNING: 'Generating',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

export const statusLabel = (status: string): string => STATUS_LABELS[status] ?? status;

/** Whether a report may still be cancelled (it has been asked for and has not ended). */
export const isInProgress = (status: string): boolean => status === 'QUEUED' || status === 'RUNNING';

/** Returns the spec's time taken: seconds / 60 with 2 decimals and "min" ("1.50 min"). */
export const minutesTaken = (seconds: number): string => `${(seconds / 60).toFixed(2)} min`;

/** Returns the raw-data download's file name: the title plus `_response.json`. */
export const rawDataFileName = (title: string): string => `${title}_response.json`;

/** Returns the raw-data download's text: title, content and raw_data, nothing else. */
export const rawDataJson = (result: Pick<ReportOutput, 'title' | 'content' | 'raw_data'>): string =>
  JSON.stringify({ title: result.title, content: result.content, raw_data: result.raw_data }, null, 2);

/** Whether the report failed: the spec's result flag is the string 'true'. */
export const hasFailed = (result: Pick<ReportOutput, 'error'> | null | undefined): boolean => result?.error === 'true';
