/**
 * A portfolio as its form holds it, and the checks the server makes on it, made in the browser
 * first with the same limits and, where the server words them, the same sentences. Rows are
 * numbered from 1 by their place in the table. Blank rows are not checked and not sent; the form
 * drops them when it saves, so the numbers it shows and the server's (which counts the holdings
 * sent) agree.
 */
import { isinProblem, normalizeIsin } from './isin';
import type { Holding, PortfolioChange } from './api/portfolio-api';

export const MAX_NAME_CHARS = 100;
export const MAX_COMPANY_CHARS = 200;
export const MAX_HOLDINGS = 500;
export const MAX_QUANTITY_DECIMALS = 6;

export type HoldingField = 'company' | 'isin' | 'quantity';

/** One row of the holdings table, as typed; `key` keeps React's rows and their focus apart. */
export interface HoldingRow {
  key: string;
  company: string;
  isin: string;
  quantity: string;
}

export interface PortfolioDraft {
  name: string;
  rows: HoldingRow[];
}

/** What is wrong with a draft: the name, the rows by key and field, and the portfolio as a whole. */
export interface DraftErrors {
  name?: string;
  rows: Record<string, Partial<Record<HoldingField, string>>>;
  form?: string;
}

let rowCount = 0;

/** Returns a new row, empty unless `values` fill it. */
export function newRow(values: Partial<Omit<HoldingRow, 'key'>> = {}): HoldingRow {
  rowCount += 1;
  return { key: `row-${rowCount}`, company: '', isin: '', quantity: '', ...values };
}

/** Returns a quantity as the form writes it: plain digits, up to 6 decimals, no exponent. */
export const quantityText = (quantity: number): string =>
  quantity.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: MAX_QUANTITY_DECIMALS });

/** Returns the rows of a saved portfolio, ready to edit. */
export const rowsOf = (holdings: Holding[]): HoldingRow[] =>
  holdings.map((h) => newRow({ company: h.company, isin: h.isin, quantity: quantityText(h.quantity) }));

/** Returns whether a row has nothing typed in it. */
export const isBlankRow = (row: HoldingRow) => !row.company.trim() && !row.isin.trim() && !row.quantity.trim();

/** Returns the rows without blank ones (a new form's empty row, a row added and never filled). */
export const withoutBlankRows = (rows: HoldingRow[]) => rows.filter((row) => !isBlankRow(row));

const chars = (text: string) => [...text].length;

/** "1,200.5" as a spreadsheet writes it: commas grouping thousands are dropped. */
const GROUPED = /^\d{1,3}(,\d{3})+(\.\d*)?$/;
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

/** Returns the number a quantity's text stands for, or why it is refused. */
export function parseQuantity(raw: string): { value: number } | { problem: 'missing' | 'not_a_number' | 'not_positive' | 'too_precise' } {
  let text = raw.trim();
  if (!text) return { problem: 'missing' };
  if (GROUPED.test(text)) text = text.replaceAll(',', '');
  if (!DECIMAL.test(text)) return { problem: 'not_a_number' };
  const value = Number(text);
  if (!Number.isFinite(value)) return { problem: 'not_a_number' };
  if (value <= 0) return { problem: 'not_positive' };
  const decimals = text.split('.')[1]?.replace(/0+$/, '').length ?? 0;
  if (decimals > MAX_QUANTITY_DECIMALS) return { problem: 'too_precise' };
  return { value };
}

function quantityMessage(row: number, raw: string): string | undefined {
  const parsed = parseQuantity(raw);
  if ('value' in parsed) return undefined;
  switch (parsed.problem) {
    case 'missing':
      return `Row ${row} needs a quantity.`;
    case 'not_a_number':
      return `Row ${row}: ${raw.trim()} is not a quantity (write it with digits and a dot, like 120.5).`;
    case 'not_positive':
      return `Row ${row}: the quantity must be more than 0.`;
    case 'too_precise':
      return `Row ${row}: the quantity can have at most ${MAX_QUANTITY_DECIMALS} decimal places.`;
  }
}

function isinMessage(row: number, raw: string, seen: Map<string, number>): string | undefined {
  const isin = normalizeIsin(raw);
  if (!isin) return `Row ${row} needs an ISIN.`;
  const problem = isinProblem(isin);
  if (problem === 'shape') {
    return `Row ${row}: ${isin} is not a valid ISIN (it has 12 characters: 2 letters, 9 letters or digits, and a check digit).`;
  }
  if (problem === 'check_digit') return `Row ${row}: ${isin} is not a valid ISIN (the check digit does not match).`;
  if (seen.has(isin)) return `Row ${row} repeats ${isin}.`;
  seen.set(isin, row);
  return undefined;
}

function companyMessage(row: number, raw: string): string | undefined {
  const company = raw.trim();
  if (!company) return `Row ${row} needs a company name.`;
  if (chars(company) > MAX_COMPANY_CHARS) return `Row ${row}: the company name can be at most ${MAX_COMPANY_CHARS} characters.`;
  return undefined;
}

/** Returns what is wrong with `draft`, or null when the server would take it; blank rows are passed over. */
export function validateDraft(draft: PortfolioDraft): DraftErrors | null {
  const errors: DraftErrors = { rows: {} };
  const name = draft.name.trim();
  if (!name) errors.name = 'Give the portfolio a name.';
  else if (chars(name) > MAX_NAME_CHARS) errors.name = `The name can be at most ${MAX_NAME_CHARS} characters.`;
  const count = withoutBlankRows(draft.rows).length;
  if (count > MAX_HOLDINGS) errors.form = `A portfolio holds at most ${MAX_HOLDINGS} holdings; this one has ${count}.`;
  const seen = new Map<string, number>();
  draft.rows.forEach((row, index) => {
    if (isBlankRow(row)) return;
    const messages = {
      company: companyMessage(index + 1, row.company),
      isin: isinMessage(index + 1, row.isin, seen),
      quantity: quantityMessage(index + 1, row.quantity),
    };
    const found = Object.fromEntries(Object.entries(messages).filter(([, message]) => message));
    if (Object.keys(found).length) errors.rows[row.key] = found;
  });
  const clean = !errors.name && !errors.form && Object.keys(errors.rows).length === 0;
  return clean ? null : errors;
}

/** Returns what a save sends for a draft that passed `validateDraft` (its blank rows left out). */
export function toChange(draft: PortfolioDraft): PortfolioChange {
  return {
    name: draft.name.trim(),
    holdings: withoutBlankRows(draft.rows).map((row) => {
      const quantity = parseQuantity(row.quantity);
      return {
        company: row.company.trim(),
        isin: normalizeIsin(row.isin),
        quantity: 'value' in quantity ? quantity.value : Number.NaN,
      };
    }),
  };
}

/** Returns how many problems `errors` holds, for the summary above the form. */
export const problemCount = (errors: DraftErrors) =>
  (errors.name ? 1 : 0) + (errors.form ? 1 : 0) + Object.values(errors.rows).reduce((n, row) => n + Object.keys(row).length, 0);
