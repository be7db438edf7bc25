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

/** A box on a PDF page, in points from the page's top left: x0, y0, x1, y1. */
export type PageBox = readonly [number, number, number, number];

/** Returns the box around a passage's line boxes (malformed ones left out), or null when none is left. */
export function boxAround(lines: readonly (readonly number[])[]): PageBox | null {
  const boxes = lines.filter((b) => b.length === 4 && b[2] > b[0] && b[3] > b[1]);
  if (boxes.length === 0) return null;
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

const roundPoint = (n: number) => String(Math.round(n * 100) / 100);

/**
 * Returns the preview's `page` and `bbox` parameters for a cited passage (the preview marks the
 * box and scrolls to it), or none when the passage has no page.
 */
export function passageParams(page: number | null | undefined, box: PageBox | null): Record<string, string> {
  if (!page || page < 1) return {};
  return box ? { page: String(page), bbox: box.map(roundPoint).join(',') } : { page: String(page) };
}

/** A document named from outside a card (a deeplink in an address): the pieces of its preview address. */
export interface DocumentAddress {
  deeplink: string;
  source: string;
  /** The preview's category (`feeds`, `apps`...); feeds when none or not a plain key. */
  category?: string;
  access_key?: string;
  public_access_key?: string;
}

/** Returns the keys in `params` that open a document (a card's, a shared link's). */
export function documentKeysOf(params: URLSearchParams): Pick<DocumentAddress, 'access_key' | 'public_access_key'> {
  const access = params.get('access_key');
  const shared = params.get('public_access_key');
  return { ...(access ? { access_key: access } : {}), ...(shared ? { public_access_key: shared } : {}) };
}

/**
 * Returns the document the parameters of an address name (`deeplink`, `source`, optional
 * `category` and keys), or null without a deeplink and a source: the server opens a document
 * only by both.
 */
export function documentFromParams(params: URLSearchParams): DocumentAddress | null {
  const deeplink = params.get('deeplink')?.trim();
  const source = params.get('source')?.trim();
  if (!deeplink || !source) return null;
  const category = params.get('category');
  return { deeplink, source, ...(category ? { category } : {}), ...documentKeysOf(params) };
}

/** A category a preview address may carry: a plain key. */
const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Returns the preview address of a document named from outside a card: a note's own preview, or
 * /preview/{category}/{deeplink} with its source and keys (and `extra`, a passage to show).
 */
export function previewPathOf(doc: DocumentAddress, extra: Record<string, string> = {}): string {
  if (doc.source === NOTES_SOURCE) return notePreviewPath(doc.deeplink);
  const category = doc.category && PLAIN_KEY.test(doc.category) ? doc.category : 'feeds';
  const shared: Record<string, string> = doc.public_access_key ? { public_access_key: doc.public_access_key } : {};
  return previewPath({ deeplink: doc.deeplink, source: doc.source, access_key: doc.access_key }, category, { ...shared, ...extra });
}
