/**
 * A PDF whose text is placed piece by piece, so a table's cells are separate runs of text side
 * by side, as MuPDF reads a typeset table (support/pdf.ts writes lines one under another only).
 */
import { pdfPage, type TestPdf } from './pdf';

/** A run of text with its left end and baseline, in points from the page's bottom left. */
export interface PlacedText {
  x: number;
  y: number;
  text: string;
}

const escape = (text: string) => text.replace(/([\\()])/g, '\\$1');

/**
 * Returns a one-page PDF (US Letter, Helvetica 11 pt) with `title` in its info dictionary and
 * each run of `runs` in a text object of its own. ASCII only, so string lengths are byte offsets.
 */
export function writePlacedPdf(title: string, runs: PlacedText[]): Buffer {
  return pdfPage(title, runs.map((r) => `BT /F1 11 Tf ${r.x} ${r.y} Td (${escape(r.text)}) Tj ET`).join('\n'));
}

/** The report's running text: sentences of eight words and more, enough to summarise. */
const SENTENCES = [
  'Orchard Fields reported revenue of 4.2 billion dollars for the year, up twelve percent.',
  'The board raised the dividend to forty cents a share after the record year.',
  'Revenue grew in every region, led by orchard sales in Europe and the Americas.',
  'The company expects revenue growth to slow next year as apple prices ease.',
  'Spring weather damaged part of the crop in the northern orchards, cutting volumes there.',
  'Management plans to open two packing plants in Spain to serve European customers faster.',
];

/** The report's table: a header row and three rows of a label and two figures. */
export const RESULTS_TABLE = [
  ['', '2024', '2023'],
  ['Revenue', '4,200', '3,750'],
  ['Net income', '610', '540'],
  ['Dividend', '0.40', '0.35'],
];

/** Where the table's columns start, in points from the left edge. */
const COLUMNS = [72, 260, 360];

/**
 * Returns an annual report whose title carries `tag`: a paragraph of six sentences, one a line,
 * then {@link RESULTS_TABLE} with each cell a text object of its own, rows 16 pt apart.
 */
export function resultsReport(tag: string): { file: TestPdf; title: string } {
  const title = `Orchard Fields annual report ${tag}`;
  const runs: PlacedText[] = [{ x: 72, y: 740, text: title }];
  SENTENCES.forEach((text, i) => runs.push({ x: 72, y: 712 - i * 14, text }));
  RESULTS_TABLE.forEach((row, r) =>
    row.forEach((text, c) => {
      if (text) runs.push({ x: COLUMNS[c], y: 600 - r * 16, text });
    }),
  );
  return { file: { name: `results-${tag}.pdf`, buffer: writePlacedPdf(title, runs), origin: 'generated' }, title };
}
