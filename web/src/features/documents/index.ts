/**
 * Documents feature: My Data and per-source feeds (/feeds/...), the document cards, read and
 * unread, and the full-page preview (/preview/{category}/{deeplink}). It owns the calls under
 * /documents and /doc; the document query keys live in src/lib/queries because the live
 * socket invalidates them too.
 * Depends on: src/lib, src/components/ui.
 */
export { DocumentsPage } from './components/documents-page';
export { PreviewPage } from './components/preview-page';
