/**
 * Reads a refusal from the server so the form can show it beside what it is about: the server's
 * sentence, and which row and field it names (rows are numbered from 1, as the form shows them).
 */
import { isApiError, serverMessage } from '../../../lib/api-client';
import type { HoldingField } from './holdings-draft';

export interface Refusal {
  /** The server's sentence, or a plain failure when it gave none for a person. */
  message: string;
  /** The field the refusal is about: the name, a holding's field, or none (the whole portfolio). */
  field?: 'name' | HoldingField;
  /** The row it names, from 1. */
  row?: number;
}

const FIELD_OF_CODE: Record<string, Refusal['field']> = {
  portfolio_name_required: 'name',
  portfolio_name_too_long: 'name',
  holding_company_required: 'company',
  invalid_isin: 'isin',
  duplicate_isin: 'isin',
  invalid_quantity: 'quantity',
};

export const SAVE_FAILED = 'The portfolio could not be saved just now. Please try again in a moment.';

/** Returns what the form says about a failed save. */
export function readRefusal(error: unknown): Refusal {
  const message = serverMessage(error);
  if (!message || !isApiError(error)) return { message: SAVE_FAILED };
  const field = FIELD_OF_CODE[error.code];
  const row = field && field !== 'name' ? Number(/\brow (\d+)\b/i.exec(message)?.[1]) : Number.NaN;
  return { message, ...(field ? { field } : {}), ...(Number.isInteger(row) && row > 0 ? { row } : {}) };
}
