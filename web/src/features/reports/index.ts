/**
 * Reports feature: research reports over a user's files and feeds. The dashboard
 * (/managers/report_generation/dashboard) lists them live and starts new ones (type, name,
 * brief, files uploaded with source "report", or a feed); the report itself shows in the report
 * overlay and at /report/{id}: its files, feedback, and the summary with cited markdown, copy,
 * raw-data download and PDF/DOCX export, or the loading phrases and section progress while it
 * is written. It owns the calls under /ml/report and the report upload calls; report query
 * keys live in src/lib/queries (the live socket refreshes them).
 * The pages and the overlay body are a second entry, `pages.ts`, which the app loads on demand
 * (they bring the markdown renderer).
 * Depends on: src/lib, src/components.
 */
export { DASHBOARD_PATH } from './report-paths';
