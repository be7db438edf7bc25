/** The report screens' addresses. */
export const DASHBOARD_PATH = '/managers/report_generation/dashboard';
export const reportPath = (reportId: string) => `/report/${encodeURIComponent(reportId)}`;
