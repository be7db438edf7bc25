/**
 * Where a report's files and citations lead: a file opens its stored location in a new tab (the
 * server's link, or the app's preview of the document); a citation opens the cited document's
 * preview at the passage (`page` and `bbox`, as AskNeedl citations do).
 */
import { boxAround, passageParams, previewPath } from '../../lib/document-links';
import type { ReportDocument } from './api/report-api';

/** Sources whose documents the preview shows under the apps category (uploads). */
const APP_SOURCES = new Set(['needldrive', 'ask_needl', 'report']);
const DEFAULT_SOURCE = 'needldrive';

/** A cited passage as raw_data keeps it. */
export interface ReportCitation {
  number: number;
  deeplink: string;
  title: string;
  source_id: string;
  page: number | null;
  boxes: number[][];
  text: string;
}

const asCitation = (value: unknown): ReportCitation | null => {
  if (typeof value !== 'object' || value === null) return null;
  const c = value as Record<string, unknown>;
  if (typeof c.number !== 'number' || typeof c.deeplink !== 'string') return null;
  return {
    number: c.number,
    deeplink: c.deeplink,
    title: typeof c.title === 'string' ? c.title : '',
    source_id: typeof c.source_id === 'string' ? c.source_id : DEFAULT_SOURCE,
    page: typeof c.page === 'number' ? c.page : null,
    boxes: Array.isArray(c.boxes) ? c.boxes.filter((b): b is number[] => Array.isArray(b) && b.every((n) => typeof n === 'number')) : [],
    text: typeof c.text === 'string' ? c.text : '',
  };
};

/** Returns the report's numbered citations from its raw data (none when it has no such list). */
export function reportCitations(rawData: unknown): ReportCitation[] {
  const list = (rawData as { citations?: unknown } | null)?.citations;
  return Array.isArray(list) ? list.map(asCitation).filter((c): c is ReportCitation => c !== null) : [];
}

const category = (source: string) => (APP_SOURCES.has(source) ? 'apps' : 'feeds');

/** Returns the address of a citation's passage: the preview of its document at its page and box. */
export function citationPath(citation: ReportCitation, redirect?: string): string {
  const extra = passageParams(citation.page, boxAround(citation.boxes));
  if (redirect) extra.redirect = redirect;
  return previewPath({ deeplink: citation.deeplink, source: citation.source_id }, category(citation.source_id), extra);
}

const isOpenable = (location: string) => /^https?:\/\//i.test(location) || location.startsWith('/');

/**
 * Returns where a report file opens: the server's link when it is one the browser can open,
 * else the app's preview of the document (its source read from the citations, or the drive's).
 */
export function fileHref(doc: ReportDocument, citations: readonly ReportCitation[]): string {
  if (doc.object_location && isOpenable(doc.object_location)) return doc.object_location;
  const source = citations.find((c) => c.deeplink === doc.metadata.guid)?.source_id ?? DEFAULT_SOURCE;
  return previewPath({ deeplink: doc.metadata.guid, source }, category(source));
}
