/**
 * Uploads feature: files into a source (the drive, `needldrive`) — the "Upload File(s)" button
 * and drop zone, the browser's checks against the server's limits, the upload round trip
 * (init, transfer with progress, complete) and status polling until each file is a document.
 * It owns the calls under /upload; upload query keys live in src/lib/queries (the live socket
 * refreshes them). Refusals are raised as notices, failed calls as mutation toasts.
 * Depends on: src/lib, src/components/ui.
 */
export { UploadPanel } from './components/upload-panel';
export const DRIVE_SOURCE = 'needldrive';
