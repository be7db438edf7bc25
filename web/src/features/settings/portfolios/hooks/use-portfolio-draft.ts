/**
 * The portfolio form's state: the draft, its problems (shown from the first attempt to save on,
 * and kept up to date as the user types), and the server's refusal of the last save, placed on
 * the row and field it names.
 */
import { useState } from 'react';
import type { PastedHolding } from '../holdings-paste';
import {
  newRow,
  validateDraft,
  withoutBlankRows,
  type DraftErrors,
  type HoldingField,
  type HoldingRow,
  type PortfolioDraft,
} from '../holdings-draft';
import type { Refusal } from '../server-refusal';

/** Returns the draft's problems with the server's refusal added where it points. */
function withRefusal(errors: DraftErrors | null, refusal: Refusal | null, rows: HoldingRow[]): DraftErrors | null {
  if (!refusal) return errors;
  const merged: DraftErrors = { rows: { ...errors?.rows }, name: errors?.name, form: errors?.form };
  const key = refusal.row ? rows[refusal.row - 1]?.key : undefined;
  if (refusal.field === 'name') merged.name ??= refusal.message;
  else if (refusal.field && key) merged.rows[key] = { [refusal.field]: refusal.message, ...merged.rows[key] };
  return merged;
}

export function usePortfolioDraft(initial: PortfolioDraft) {
  const [draft, setDraft] = useState(initial);
  const [checked, setChecked] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const problems = checked ? validateDraft(draft) : null;
  const errors = withRefusal(problems, refusal, draft.rows);

  const setRows = (update: (rows: HoldingRow[]) => HoldingRow[]) => setDraft((d) => ({ ...d, rows: update(d.rows) }));

  return {
    draft,
    /** The problems to show, or null. */
    errors,
    /** The problems found by the browser alone (the summary counts these). */
    problems,
    refusal,
    setName: (name: string) => setDraft((d) => ({ ...d, name })),
    setField: (key: string, field: HoldingField, value: string) =>
      setRows((rows) => rows.map((row) => (row.key === key ? { ...row, [field]: value } : row))),
    /** Adds an empty row at the end and returns its key. */
    addRow: () => {
      const row = newRow();
      setRows((rows) => [...rows, row]);
      return row.key;
    },
    removeRow: (key: string) => setRows((rows) => rows.filter((row) => row.key !== key)),
    /** Adds pasted holdings after the rows that have something in them (blank rows give way). */
    addPasted: (holdings: PastedHolding[]) =>
      setRows((rows) => [...withoutBlankRows(rows), ...holdings.map((holding) => newRow(holding))]),
    /**
     * Starts a save: drops blank rows (so row numbers are the server's) and returns the draft to
     * send, or null when the browser already sees problems.
     */
    beginSave: (): PortfolioDraft | null => {
      const compact = { ...draft, rows: withoutBlankRows(draft.rows) };
      setDraft(compact);
      setChecked(true);
      setRefusal(null);
      return validateDraft(compact) ? null : compact;
    },
    refuse: setRefusal,
  };
}
