/** How a document's fields are shown: its source label, date, preview address and detail tags. */
import { formatFileSize, titleFromSourceKey } from '../../lib/format';
import type { DocumentCard, DocumentKeys } from './api/document-api';

// Shared with the search feature's cards, so they live in src/lib.
export { dateLine } from '../../lib/format';
export { previewPath } from '../../lib/document-links';

/** Names of the sources every user has. */
const BUILT_IN_SOURCES: Record<string, string> = { needldrive: 'Needl Drive', ask_needl: 'AskNeedl', webdav: 'WebDAV drive' };

/**
 * Returns the source's name: the followed source's label when known, else the one the server put
 * in the metadata, else a built-in source's name, else one made from its key.
 */
export const sourceLabel = (doc: Pick<DocumentCard, 'source' | 'metadata'>, labels?: ReadonlyMap<string, string>): string =>
  labels?.get(doc.source) ??
  doc.metadata?.source_label ??
  doc.metadata?.feed_title ??
  BUILT_IN_SOURCES[doc.source] ??
  titleFromSourceKey(doc.source);

/** Returns when the document was published, or when Needl got it if the source did not say. */
export const documentDate = (doc: Pick<DocumentCard, 'published_at' | 'ingested_at'>): string =>
  doc.published_at ?? doc.ingested_at;

/** What cards show about an uploaded file. */
export interface FileInfo {
  name: string;
  /** In bytes; null when the server did not say. */
  size: number | null;
  mimeType: string | null;
}

/**
 * Returns the file facts of an uploaded document (its metadata names the original file, or
 * gives a mime type and size), or null for other documents.
 */
export function fileInfo(doc: Pick<DocumentCard, 'title' | 'metadata'>): FileInfo | null {
  const { original_file_name: name, mime_type: mimeType, size } = doc.metadata ?? {};
  if (!name && !(mimeType && size)) return null;
  const bytes = size !== undefined && /^\d+$/.test(size) ? Number(size) : null;
  return { name: name || doc.title, size: bytes, mimeType: mimeType || null };
}

export const isPdf = (doc: Pick<DocumentCard, 'title' | 'metadata'>): boolean => {
  const info = fileInfo(doc);
  return info?.mimeType === 'application/pdf' || Boolean(info && !info.mimeType && /\.pdf$/i.test(info.name));
};

/**
 * Source ids of followed websites and RSS feeds: the server derives them from the address
 * (`rss_…`, `web_…`). Their documents are the spec's "website/RSS" items.
 */
const WEBSITE_OR_RSS = /^(rss|web)_/;

/** Returns whether a document came from a followed website or RSS feed. */
export const isWebsiteOrRss = (doc: Pick<DocumentCard, 'source'>): boolean => WEBSITE_OR_RSS.test(doc.source);

/**
 * Returns the address of a shared link: the preview, carrying the `public_access_key` that lets
 * any signed-in person read this one document.
 */
export function shareLink(
  origin: string,
  doc: Pick<DocumentCard, 'deeplink' | 'source'>,
  publicAccessKey: string,
  category = 'feeds',
): string {
  const params = new URLSearchParams({ source: doc.source, public_access_key: publicAccessKey });
  return `${origin}/preview/${encodeURIComponent(category)}/${encodeURIComponent(doc.deeplink)}?${params}`;
}

/** Returns the keys a preview address carries, to open the document with. */
export function keysFromParams(params: URLSearchParams): DocumentKeys {
  const keys: DocumentKeys = {};
  const access = params.get('access_key');
  const shared = params.get('public_access_key');
  if (access) keys.access_key = access;
  if (shared) keys.public_access_key = shared;
  return keys;
}

/** The detail tags the spec names, in its order, with their labels. */
const DETAIL_TAGS: Array<[string, string]> = [
  ['title', 'Title'],
  ['author_institution', 'Author institution'],
  ['report_type', 'Report type'],
  ['company_name', 'Company name'],
  ['form_type', 'Form'],
  ['listed', 'Listed'],
  ['isin', 'ISIN'],
  ['cin', 'CIN'],
  ['quarter', 'Quarter'],
  ['isbn', 'ISBN'],
  ['pages', 'Pages'],
  ['year', 'Year'],
  ['report_date', 'Report date'],
  ['period_end', 'Period ended'],
  ['industry', 'Industry'],
  ['instrument', 'Instrument'],
  ['recommendation', 'Recommendation'],
  ['price', 'Price'],
  ['size', 'Size'],
  ['created_by', 'Created by'],
];

/** Metadata keys shown elsewhere (source label, file facts) or internal, not as tags. */
const HIDDEN = new Set(['source_label', 'feed_title', 'original_file_name', 'mime_type', 'layout_blob', 'bucket', 'object_key', 'garbled']);

/** Returns a tag's value as shown: a size in bytes is formatted. */
const shownValue = (key: string, value: string) => (key === 'size' && /^\d+$/.test(value) ? formatFileSize(Number(value)) : value);

/** Returns the metadata as label/value pairs: the spec's detail tags first, then the rest by key. */
export function detailTags(metadata: Record<string, string> | undefined): Array<{ key: string; label: string; value: string }> {
  const entries = Object.entries(metadata ?? {}).filter(([key, value]) => !HIDDEN.has(key) && value !== '');
  const order = new Map(DETAIL_TAGS.map(([key], index) => [key, index]));
  const labels = new Map(DETAIL_TAGS);
  return entries
    .sort(([a], [b]) => (order.get(a) ?? 1000) - (order.get(b) ?? 1000) || a.localeCompare(b))
    .map(([key, value]) => ({ key, label: labels.get(key) ?? titleFromSourceKey(key), value: shownValue(key, String(value)) }));
}
