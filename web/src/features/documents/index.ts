/**
 * Documents feature: My Data and per-source feeds (/feeds/...), the document cards, read and
 * unread, uploaded files (name, size, download, delete), and the full-page preview
 * (/preview/{category}/{deeplink}), which draws uploaded PDFs with pdf.js (loaded on demand)
 * and marks a passage named in the address. It owns the calls under
 * /documents and /doc; the document query keys live in src/lib/queries because the live
 * socket invalidates them too.
 * Depends on: src/lib, src/components/ui.
 */
export { DocumentList } from './components/document-list';
export { DocumentsPage } from './components/documents-page';
export { PreviewPage } from './components/preview-page';
