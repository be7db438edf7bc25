/**
 * PDFs for upload tests: a real one from the shared test data when it is there (CI has it), else
 * a small valid PDF written here, so the suite passes on a fresh clone too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface TestPdf {
  name: string;
  buffer: Buffer;
  /** Where it came from, for the test log. */
  origin: string;
}

/** The shared data lives beside the project: `<root>/../shared/data`. */
const SHARED_PDF = fileURLToPath(new URL('../../../../shared/data/docs/pdf/research/pdfjs__tracemonkey.pdf', import.meta.url));

const escape = (text: string) => text.replace(/([\\()])/g, '\\$1');

/**
 * Returns a one-page PDF (US Letter, Helvetica) with `title` in its info dictionary and each
 * line of `lines` as text, 22 points apart from the top left margin. ASCII only, so string
 * lengths are byte offsets.
 */
export function writePdf(title: string, lines: string[]): Buffer {
  const text = lines.map((line, i) => `${i === 0 ? '' : 'T* '}(${escape(line)}) Tj`).join('\n');
  return pdfPage(title, `BT\n/F1 16 Tf\n22 TL\n72 700 Td\n${text}\nET`);
}

/**
 * Returns a one-page PDF (US Letter, Helvetica as `/F1`) drawing `content`, a content stream, with
 * `title` in its info dictionary and a correct cross-reference table. ASCII only, so string
 * lengths are byte offsets.
 */
export function pdfPage(title: string, content: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Title (${escape(title)}) /Producer (Needl end-to-end tests) >>`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** Returns a generated PDF named `name`, whose title and text carry `tag`. */
export function generatedPdf(name: string, tag: string): TestPdf {
  return {
    name,
    buffer: writePdf(`Quarterly review ${tag}`, [
      `Quarterly review ${tag}`,
      'Revenue grew by twelve percent in the third quarter.',
      'Exports led the growth while costs stayed flat.',
    ]),
    origin: 'generated',
  };
}

/** Returns the shared research PDF under a unique name, or a generated one when it is absent. */
export function uploadPdf(tag: string): TestPdf {
  const name = `e2e-${tag}.pdf`;
  if (existsSync(SHARED_PDF)) return { name, buffer: readFileSync(SHARED_PDF), origin: SHARED_PDF };
  return generatedPdf(name, tag);
}

/**
 * A generated harbour report whose text holds a made-up word only this file has, so an answer
 * that quotes the word can only come from it. Returns the file, the word and the title.
 */
export function harbourReport(tag: string): { file: TestPdf; word: string; title: string } {
  const word = `quillwort${tag}`;
  const title = `Harbour report ${tag}`;
  const file: TestPdf = {
    name: `harbour-${tag}.pdf`,
    buffer: writePdf(title, [title, `Imports of ${word} rose by forty percent in the second quarter.`, 'Shipping lines added two new routes.']),
    origin: 'generated',
  };
  return { file, word, title };
}
