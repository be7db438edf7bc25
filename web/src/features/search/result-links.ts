/** How a search hit opens: the full-page preview, at the passage of the highlight being shown (a note: its own preview). */
import { NOTES_SOURCE, notePreviewPath, previewPath } from '../../lib/document-links';
import { titleFromSourceKey } from '../../lib/format';
import type { SearchHighlight, SearchHit } from './api/search-api';

/** Sources whose documents the preview opens under the apps category (uploads). */
const APP_SOURCES = new Set(['needldrive']);

/** Returns the preview's category for a hit: apps for uploaded files, feeds otherwise. */
export const previewCategory = (hit: Pick<SearchHit, 'source'>): string => (APP_SOURCES.has(hit.source) ? 'apps' : 'feeds');

/** Returns whether a hit is a PDF (whose preview can open at a page). */
export function isPdfHit(hit: Pick<SearchHit, 'metadata'>): boolean {
  const { mime_type: mime, file_name: fileName, original_file_name: originalName } = hit.metadata;
  if (mime) return mime === 'application/pdf';
  return /\.pdf$/i.test(fileName ?? originalName ?? '');
}

const round = (n: number) => String(Math.round(n * 100) / 100);

/**
 * Returns the preview parameters that show a highlight's passage: its `page`, and the `bbox`
 * around all its boxes (PDF points on that page) when it has any.
 */
export function passageParams(highlight: SearchHighlight | undefined): Record<string, string> {
  if (!highlight?.page) return {};
  const params: Record<string, string> = { page: String(highlight.page) };
  const boxes = highlight.boxes.filter(([x0, y0, x1, y1]) => x1 > x0 && y1 > y0);
  if (boxes.length > 0) {
    const bbox = [
      Math.min(...boxes.map((b) => b[0])),
      Math.min(...boxes.map((b) => b[1])),
      Math.max(...boxes.map((b) => b[2])),
      Math.max(...boxes.map((b) => b[3])),
    ];
    params.bbox = bbox.map(round).join(',');
  }
  return params;
}

/**
 * Returns the preview address of a hit, with its access key, at the highlight's page for a PDF.
 * A note (source `needl_notebooks`, deeplink its id) opens the note's own preview, not a document's.
 */
export function resultHref(hit: SearchHit, highlight?: SearchHighlight): string {
  if (hit.source === NOTES_SOURCE) return notePreviewPath(hit.deeplink);
  const target = { deeplink: hit.deeplink, source: hit.source, access_key: hit.access_key ?? undefined };
  return previewPath(target, previewCategory(hit), isPdfHit(hit) ? passageParams(highlight) : {});
}

/** Returns the name of a hit's source: the server's label, else one made from its key. */
export const hitSourceLabel = (hit: Pick<SearchHit, 'source' | 'source_label'>): string =>
  hit.source_label || titleFromSourceKey(hit.source);

/** Returns the date a card shows: when published, else when Needl recorded it (as My Data's cards do). */
export const hitDate = (hit: Pick<SearchHit, 'published_at' | 'ingested_at'>): string | null => hit.published_at ?? hit.ingested_at ?? null;
