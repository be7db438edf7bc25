/**
 * Uploads feature: files into a source (the drive, `needldrive`) — the "Upload File(s)" button
 * and drop zone, the browser's checks against the server's limits, the upload round trip
 * (init, transfer with progress, complete) and status polling until each file is a document.
 * The upload state lives in `UploadsProvider`, which the app mounts above its pages so uploads
 * outlive the page they started on; `UploadIndicator` sums them up in the shell. The panel
 * itself is exported from `panel.ts`, so the drive page can load it on demand.
 * It owns the calls under /upload; upload query keys live in src/lib/queries (the live socket
 * refreshes them). Refusals are raised as notices, failed calls as mutation toasts.
 * Depends on: src/lib, src/components/ui.
 */
export { UploadIndicator } from './components/upload-indicator';
export { UploadsProvider } from './components/uploads-provider';
export { useFileUpload } from './hooks/use-file-upload';
export const DRIVE_SOURCE = 'needldrive';
