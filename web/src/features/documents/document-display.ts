/** How a document's fields are shown: its source label, date, preview address and detail tags. */
import { titleFromSourceKey } from '../../lib/format';
import type { DocumentCard } from './api/document-api';

/**
 * Returns the source's name: the followed source's label when known, else the one the server put
 * in the metadata, else one made from its key.
 */
export const sourceLabel = (doc: Pick<DocumentCard, 'source' | 'metadata'>, labels?: ReadonlyMap<string, string>): string =>
  labels?.get(doc.source) ?? doc.metadata?.source_label ?? doc.metadata?.feed_title ?? titleFromSourceKey(doc.source);

/** Returns when the document was published, or when Needl got it if the source did not say. */
export const documentDate = (doc: Pick<DocumentCard, 'published_at' | 'ingested_at'>): string =>
  doc.published_at ?? doc.ingested_at;

/** Returns the full-page preview address of a document in a category (feeds by default). */
export const previewPath = (doc: Pick<DocumentCard, 'deeplink' | 'source'>, category = 'feeds'): string =>
  `/preview/${encodeURIComponent(category)}/${encodeURIComponent(doc.deeplink)}?source=${encodeURIComponent(doc.source)}`;

/** The detail tags the spec names, in its order, with their labels. */
const DETAIL_TAGS: Array<[string, string]> = [
  ['title', 'Title'],
  ['author_institution', 'Author institution'],
  ['report_type', 'Report type'],
  ['company_name', 'Company name'],
  ['listed', 'Listed'],
  ['isin', 'ISIN'],
  ['cin', 'CIN'],
  ['quarter', 'Quarter'],
  ['isbn', 'ISBN'],
  ['pages', 'Pages'],
  ['year', 'Year'],
  ['report_date', 'Report date'],
  ['industry', 'Industry'],
  ['instrument', 'Instrument'],
  ['recommendation', 'Recommendation'],
  ['price', 'Price'],
  ['size', 'Size'],
  ['created_by', 'Created by'],
];

/** Metadata keys used for the source label rather than shown as tags. */
const HIDDEN = new Set(['source_label', 'feed_title']);

/** Returns the metadata as label/value pairs: the spec's detail tags first, then the rest by key. */
export function detailTags(metadata: Record<string, string> | undefined): Array<{ key: string; label: string; value: string }> {
  const entries = Object.entries(metadata ?? {}).filter(([key, value]) => !HIDDEN.has(key) && value !== '');
  const order = new Map(DETAIL_TAGS.map(([key], index) => [key, index]));
  const labels = new Map(DETAIL_TAGS);
  return entries
    .sort(([a], [b]) => (order.get(a) ?? 1000) - (order.get(b) ?? 1000) || a.localeCompare(b))
    .map(([key, value]) => ({ key, label: labels.get(key) ?? titleFromSourceKey(key), value: String(value) }));
}
