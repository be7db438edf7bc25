/**
 * Addresses of documents inside the app. Shared: the documents feature's cards and the search
 * feature's results both open the full-page preview.
 */

/** What a preview address needs of a document. */
export interface PreviewTarget {
  deeplink: string;
  source: string;
  /** Sent back when the preview opens the document; a wrong one answers 404. */
  access_key?: string;
}

/**
 * Returns the full-page preview address of a document in a category (feeds by default),
 * carrying the card's `access_key` (the server checks it when the preview opens the document)
 * and any `extra` parameters (a passage to show: `page` and `bbox`).
 */
export function previewPath(doc: PreviewTarget, category = 'feeds', extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ source: doc.source });
  if (doc.access_key) params.set('access_key', doc.access_key);
  Object.entries(extra).forEach(([key, value]) => params.set(key, value));
  return `/preview/${encodeURIComponent(category)}/${encodeURIComponent(doc.deeplink)}?${params}`;
}

/** The source a note carries where documents carry theirs (search hits, AskNeedl citations). */
export const NOTES_SOURCE = 'needl_notebooks';

/** Returns the read-only preview address of a note: `/preview/needl_notebooks/{id}`. */
export const notePreviewPath = (noteId: string): string => `/preview/${NOTES_SOURCE}/${encodeURIComponent(noteId)}`;
