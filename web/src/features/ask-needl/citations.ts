/**
 * Citations of an answer: the `[n]` marks in its markdown made into citation links, the few
 * words around a cited passage's highlight for the popover, its date, and the address that
 * opens the cited document at the passage (the full-page preview, with `page` and `bbox`).
 */
import { boxAround, NOTES_SOURCE, notePreviewPath, previewPath } from '../../lib/document-links';
export { CITATION_HREF_PREFIX, citationNumberOf, citationNumbers, linkCitations } from '../../lib/citation-marks';
import type { Citation } from './types';

/** Returns citation `n` of an answer: the one with that id, else `retrieved_results[n - 1]`. */
export function findCitation(citations: readonly Citation[], n: number): Citation | undefined {
  return citations.find((c) => c.id === n) ?? (citations.every((c) => typeof c.id !== 'number') ? citations[n - 1] : undefined);
}

/** Words shown before and after a highlight in the popover. */
export const WORDS_BEFORE = 5;
export const WORDS_AFTER = 6;

/** A run of a popover's snippet; `mark` for the highlighted words. */
export interface SnippetRun {
  text: string;
  mark: boolean;
}

/**
 * Returns the snippets of a passage: for each highlight, about five words before it, the
 * highlight, and six words after, with "…" where the passage goes on. Without highlights, the
 * passage's first words.
 */
export function citationSnippets(context: string | null | undefined, highlights: readonly [number, number][] | null | undefined): SnippetRun[][] {
  const text = (context ?? '').replace(/\s+/g, ' ');
  if (!text.trim()) return [];
  const chars = Array.from(context ?? '');
  const valid = (highlights ?? [])
    .filter(([start, end]) => Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end > start && start < chars.length)
    .slice(0, 3);
  if (valid.length === 0) {
    const words = text.trim().split(' ');
    const head = words.slice(0, WORDS_BEFORE + WORDS_AFTER).join(' ');
    return [[{ text: words.length > WORDS_BEFORE + WORDS_AFTER ? `${head}…` : head, mark: false }]];
  }
  return valid.map(([start, end]) => {
    const before = chars.slice(0, start).join('').replace(/\s+/g, ' ');
    const marked = chars.slice(start, Math.min(end, chars.length)).join('').replace(/\s+/g, ' ').trim();
    const after = chars.slice(Math.min(end, chars.length)).join('').replace(/\s+/g, ' ');
    const beforeWords = before.trimEnd().split(' ').filter(Boolean);
    const afterWords = after.trimStart().split(' ').filter(Boolean);
    const lead = beforeWords.slice(-WORDS_BEFORE).join(' ');
    const tail = afterWords.slice(0, WORDS_AFTER).join(' ');
    const runs: SnippetRun[] = [];
    const leadText = `${beforeWords.length > WORDS_BEFORE ? '…' : ''}${lead}`;
    if (leadText) runs.push({ text: `${leadText}${/\s$/.test(before) || !lead ? ' ' : ''}`, mark: false });
    runs.push({ text: marked, mark: true });
    const tailText = `${tail}${afterWords.length > WORDS_AFTER ? '…' : ''}`;
    if (tailText) runs.push({ text: `${/^\s/.test(after) ? ' ' : ''}${tailText}`, mark: false });
    return runs;
  });
}

/** Returns a citation's date as en-GB day, short month, year ("5 Mar 2024"), or null. */
export function citationDate(unix: number | null | undefined): string | null {
  if (typeof unix !== 'number' || !Number.isFinite(unix) || unix <= 0) return null;
  const millis = unix > 1e12 ? unix : unix * 1000;
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(millis));
}

const round = (n: number) => String(Math.round(n * 100) / 100);

/** Returns the page and the box around a citation's passage (PDF points), when it has them. */
export function citationPassage(citation: Pick<Citation, 'document_highlight' | 'highlighted_coordinates'>): { page: number; bbox: number[] | null } | null {
  const highlight = citation.document_highlight ?? citation.highlighted_coordinates?.[0];
  if (!highlight) return null;
  const page = highlight.page_number ?? highlight.page ?? null;
  if (!page || page < 1) return null;
  const lines = boxAround(highlight.lines ?? []);
  if (lines) return { page, bbox: [...lines] };
  const points = highlight.coordinates ?? [];
  if (points.length >= 2) {
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    if (box[2] > box[0] && box[3] > box[1]) return { page, bbox: box };
  }
  if (highlight.box?.length === 4) return { page, bbox: highlight.box };
  return { page, bbox: null };
}

/** Sources whose documents the preview shows under the apps category (uploads). */
const APP_SOURCES = new Set(['needldrive', 'ask_needl']);

const isHttp = (url: string | null | undefined): url is string => Boolean(url && /^https?:\/\//i.test(url));

/**
 * Returns where a citation leads: the in-app preview of its document (at the passage, carrying
 * the access key and the page to return to), or its original web address when it has no
 * document to open.
 */
export function citationTarget(citation: Citation, redirect?: string): { kind: 'preview'; to: string } | { kind: 'external'; href: string } | null {
  // A web page of the public corpus opens the original; the server links it as /redirect.
  if (citation.needl_document_link?.startsWith('/redirect') && isHttp(citation.url)) return { kind: 'external', href: citation.url };
  // A note (asked over a notebook) opens the note's own preview, where the server has it.
  if (citation.document_id && citation.source === NOTES_SOURCE) return { kind: 'preview', to: notePreviewPath(citation.document_id) };
  if (citation.document_id && citation.source) {
    const extra: Record<string, string> = {};
    if (citation.category_tab) extra.category_tab = citation.category_tab;
    if (citation.channel_id) extra.channel_id = citation.channel_id;
    const passage = citationPassage(citation);
    if (passage) {
      extra.page = String(passage.page);
      if (passage.bbox) extra.bbox = passage.bbox.map(round).join(',');
    }
    if (redirect) extra.redirect = redirect;
    const category = APP_SOURCES.has(citation.source) ? 'apps' : 'feeds';
    return {
      kind: 'preview',
      to: previewPath({ deeplink: citation.document_id, source: citation.source, access_key: citation.access_key ?? undefined }, category, extra),
    };
  }
  if (isHttp(citation.url)) return { kind: 'external', href: citation.url };
  return null;
}

/** Returns the spec's simple form of a citation: label, colon and space, link. */
export function citationLine(citation: Citation): string {
  const target = citationTarget(citation);
  const link = target?.kind === 'external' ? target.href : target?.kind === 'preview' ? target.to : '';
  return `[${citation.id}] ${citation.title_label || citation.source_label}: ${link}`;
}
