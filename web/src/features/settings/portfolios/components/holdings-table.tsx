import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import type { DraftErrors, HoldingField, HoldingRow } from '../holdings-draft';
import { XIcon } from '../../../../components/ui/icons';

const FIELDS: ReadonlyArray<{ field: HoldingField; label: string; inputMode?: 'decimal' }> = [
  { field: 'company', label: 'Company' },
  { field: 'isin', label: 'ISIN' },
  { field: 'quantity', label: 'Quantity', inputMode: 'decimal' },
];

export interface HoldingsTableProps {
  rows: HoldingRow[];
  errors: DraftErrors['rows'];
  onChange: (key: string, field: HoldingField, value: string) => void;
  /** Adds an empty row at the end; returns its key. */
  onAdd: () => string;
  onRemove: (key: string) => void;
}

/**
 * The holdings, a row each, typed in place. Enter moves to the next row's company (adding a row
 * after the last); adding or removing a row puts focus where typing goes on. A row's problems are
 * written under it, each tied to its field. On a phone each row is a card (portfolios.css).
 */
export function HoldingsTable({ rows, errors, onChange, onAdd, onRemove }: HoldingsTableProps) {
  const prefix = useId();
  const inputId = (key: string, field: HoldingField) => `${prefix}-${key}-${field}`;
  const addButton = useRef<HTMLButtonElement>(null);
  // The field to focus once the rows have rendered (a row just added, or the one after a removed row).
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current === null) return;
    const target = focusNext.current ? document.getElementById(focusNext.current) : addButton.current;
    focusNext.current = null;
    target?.focus();
  }, [rows]);

  const add = () => {
    focusNext.current = inputId(onAdd(), 'company');
  };
  const remove = (index: number) => {
    const next = rows[index + 1] ?? rows[index - 1];
    focusNext.current = next ? inputId(next.key, 'company') : '';
    onRemove(rows[index].key);
  };
  const onEnter = (event: KeyboardEvent<HTMLInputElement>, index: number) => {
    if (event.key !== 'Enter' || event.ctrlKey || event.metaKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    const next = rows[index + 1];
    if (next) document.getElementById(inputId(next.key, 'company'))?.focus();
    else add();
  };

  return (
    <div className="stack">
      {rows.length > 0 && (
        <table className="table holdings-table">
          <caption className="visually-hidden">Holdings</caption>
          <thead>
            <tr>
              <th scope="col" className="holdings-number">
                <span className="visually-hidden">Row</span>
              </th>
              {FIELDS.map(({ field, label }) => (
                <th key={field} scope="col" className={`holdings-${field}`}>
                  {label}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          {rows.map((row, index) => {
            const rowErrors = errors[row.key] ?? {};
            const n = index + 1;
            return (
              <tbody key={row.key} className="holdings-row" aria-label={`Row ${n}`}>
                <tr>
                  <th scope="row" className="holdings-number">
                    {n}
                  </th>
                  {FIELDS.map(({ field, label, inputMode }) => (
                    <td key={field} className={`holdings-${field}`}>
                      <label className="holdings-cell-label" htmlFor={inputId(row.key, field)}>
                        {label}
                        <span className="visually-hidden">, row {n}</span>
                      </label>
                      <input
                        id={inputId(row.key, field)}
                        aria-label={`${label}, row ${n}`}
                        className="input"
                        value={row[field]}
                        inputMode={inputMode}
                        autoComplete="off"
                        spellCheck={field === 'company'}
                        autoCapitalize={field === 'isin' ? 'characters' : undefined}
                        aria-invalid={rowErrors[field] ? true : undefined}
                        aria-describedby={rowErrors[field] ? `${inputId(row.key, field)}-error` : undefined}
                        onChange={(event) => onChange(row.key, field, event.target.value)}
                        onKeyDown={(event) => onEnter(event, index)}
                      />
                    </td>
                  ))}
                  <td className="holdings-remove">
                    <button type="button" className="button button-quiet" aria-label={`Remove row ${n}`} onClick={() => remove(index)}>
                      <XIcon size={14} aria-hidden="true" />
                      <span className="holdings-remove-text">Remove</span>
                    </button>
                  </td>
                </tr>
                {Object.keys(rowErrors).length > 0 && (
                  <tr className="holdings-errors">
                    <td colSpan={5}>
                      {FIELDS.filter(({ field }) => rowErrors[field]).map(({ field }) => (
                        <p key={field} id={`${inputId(row.key, field)}-error`} className="field-error">
                          {rowErrors[field]}
                        </p>
                      ))}
                    </td>
                  </tr>
                )}
              </tbody>
            );
          })}
        </table>
      )}
      <p>
        <button ref={addButton} type="button" className="button" onClick={add}>
          Add holding
        </button>
      </p>
    </div>
  );
}
