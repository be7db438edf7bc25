/**
 * Turns pasted lines into holdings: "company,isin,quantity" a line, as a CSV file or a
 * spreadsheet's copied cells (tab-separated) have them. Quotes are honoured ("Apple, Inc.");
 * unquoted commas beyond the two last fields are taken as part of the company's name. A first line
 * naming the columns is skipped. Lines that cannot be read are returned with the reason.
 */

export interface PastedHolding {
  company: string;
  isin: string;
  quantity: string;
}

export interface PasteResult {
  holdings: PastedHolding[];
  /** One sentence per line that was not read, naming the line (from 1). */
  problems: string[];
  /** The lines that were not read, to leave in the box for fixing. */
  unread: string[];
}

/** Returns the fields of one line split at `separator`, honouring double quotes. */
export function splitLine(line: string, separator: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === separator) {
      fields.push(field.trim());
      field = '';
    } else {
      field += c;
    }
  }
  fields.push(field.trim());
  return fields;
}

const isHeader = (fields: string[]) => fields.length >= 2 && fields[fields.length - 2].toLowerCase() === 'isin';

/** Returns the holdings in `text`, one a line, and what could not be read. */
export function parseHoldingLines(text: string): PasteResult {
  const result: PasteResult = { holdings: [], problems: [], unread: [] };
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    const fields = splitLine(line, line.includes('\t') ? '\t' : ',');
    if (index === lines.findIndex((l) => l.trim()) && isHeader(fields)) return;
    if (fields.length < 3) {
      result.problems.push(`Line ${index + 1} needs a company, an ISIN and a quantity, separated by commas.`);
      result.unread.push(line);
      return;
    }
    const company = fields.slice(0, -2).join(', ');
    result.holdings.push({ company, isin: fields[fields.length - 2], quantity: fields[fields.length - 1] });
  });
  return result;
}
