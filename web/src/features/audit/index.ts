/**
 * Audit feature: the auditor's view of the event log (issue 21), for administrators and
 * auditors. The log page (/settings/audit) holds the hash chain's status with Verify now, Create
 * checkpoint and the recent checkpoints; the events newest first, paged back in time with the
 * cursor, with filters kept in the address, an NDJSON export of the filtered selection (in feed
 * order), and a banner offering the newest when the live socket announces newer events; and each event's detail (metadata, formatted payload with
 * redacted secrets muted). The history page (/settings/audit/history) shows one aggregate's events
 * and its state as of a picked event or moment (time travel).
 * It owns the calls under /audit; its query keys live in src/lib/queries because the live socket
 * (src/lib/live-audit.ts) records the feed's head there.
 * The pages are a second entry, `pages.ts`, which the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export { AUDIT_PATH, HISTORY_PATH } from './audit-paths';
