/**
 * Documents feature: My Data (/feeds/home, with a tab per sub-category from the category index,
 * landing on the first connected one) and per-source feeds (/feeds/...), the document cards,
 * read and unread, sharing (a link carrying a public access key, copied to the clipboard),
 * uploaded files (name, size, download, delete), and the full-page preview
 * (/preview/{category}/{deeplink}), which opens the document with the keys its address carries,
 * draws uploaded PDFs with pdf.js (loaded on demand) and marks a passage named in the address.
 * The actions on cards and the preview, each behind its feature flag and the visibility rules
 * of spec §6 (`action-rules.ts`): summaries (asked for, watched while written, opened as a PDF
 * in a new tab), a PDF's tables (a dialog, CSV and Excel downloads), open in a new tab and full
 * screen. It owns the calls under /documents and /doc; the document and category query keys live
 * in src/lib/queries because the live socket invalidates them too, while the summary and table
 * keys, which nothing else touches, stay in its api folder.
 * My Data and the preview are a second entry, `pages.ts`, which the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export type { DocumentListing } from './api/document-api';
export { DocumentList } from './components/document-list';
export { DocumentsPage } from './components/documents-page';
export { useDocumentLabels } from './hooks/use-document-labels';
