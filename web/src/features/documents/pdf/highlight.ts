/**
 * Where a passage is on a PDF page: from the address (`page` and `bbox=x0,y0,x1,y1`, PDF points
 * from the page's top left) or by finding a `highlight` text among the page layout's blocks.
 */
import type { DocumentLayout } from '../api/document-api';

export type Box = [number, number, number, number];

export interface PdfHighlight {
  /** From 1. */
  page: number;
  bbox: Box;
}

/** Returns the page the address asks to open at (`page`, from 1), or null. */
export function pageFromParams(params: URLSearchParams): number | null {
  const page = Number(params.get('page'));
  return params.get('page') !== null && Number.isInteger(page) && page >= 1 ? page : null;
}

/** Returns the box the address gives, or null when `page` or `bbox` is missing or malformed. */
export function highlightFromParams(params: URLSearchParams): PdfHighlight | null {
  const page = Number(params.get('page'));
  const parts = (params.get('bbox') ?? '').split(',').map((p) => (p.trim() === '' ? Number.NaN : Number(p)));
  if (!Number.isInteger(page) || page < 1 || parts.length !== 4 || !parts.every(Number.isFinite)) return null;
  const [x0, y0, x1, y1] = parts;
  if (x1 <= x0 || y1 <= y0) return null;
  return { page, bbox: [x0, y0, x1, y1] };
}

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

const union = (boxes: Box[]): Box => [
  Math.min(...boxes.map((b) => b[0])),
  Math.min(...boxes.map((b) => b[1])),
  Math.max(...boxes.map((b) => b[2])),
  Math.max(...boxes.map((b) => b[3])),
];

/**
 * Returns the first place `text` occurs in the layout, as the union of the blocks it spans
 * (a passage may cross blocks), or null. Case and runs of whitespace are ignored.
 */
export function findHighlight(layout: DocumentLayout, text: string): PdfHighlight | null {
  const needle = normalise(text);
  if (!needle) return null;
  for (const page of layout.pages) {
    let joined = '';
    const spans: Array<{ start: number; end: number; bbox: Box }> = [];
    for (const block of page.blocks) {
      const blockText = normalise(block.text);
      if (!blockText) continue;
      if (joined) joined += ' ';
      spans.push({ start: joined.length, end: joined.length + blockText.length, bbox: block.bbox });
      joined += blockText;
    }
    const at = joined.indexOf(needle);
    if (at < 0) continue;
    const end = at + needle.length;
    const covered = spans.filter((s) => s.start < end && s.end > at).map((s) => s.bbox);
    if (covered.length > 0) return { page: page.number, bbox: union(covered) };
  }
  return null;
}

/** Returns the box as CSS percentages of a page `width` × `height` points. */
export function boxStyle([x0, y0, x1, y1]: Box, width: number, height: number) {
  const pct = (value: number, total: number) => `${Math.max(0, Math.min(100, (value / total) * 100))}%`;
  return { left: pct(x0, width), top: pct(y0, height), width: pct(x1 - x0, width), height: pct(y1 - y0, height) };
}
