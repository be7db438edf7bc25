import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { TextField } from '../../../../components/ui/text-field';
import type { Portfolio } from '../api/portfolio-api';
import { newRow, problemCount, rowsOf, toChange, MAX_NAME_CHARS } from '../holdings-draft';
import { usePortfolioDraft } from '../hooks/use-portfolio-draft';
import { useSavePortfolio } from '../hooks/use-portfolio-mutations';
import { PORTFOLIOS_PATH } from '../paths';
import { readRefusal } from '../server-refusal';
import { HoldingsPasteBox } from './holdings-paste-box';
import { HoldingsTable } from './holdings-table';

export interface PortfolioFormProps {
  /** The saved portfolio to edit; none makes a new one. */
  portfolio?: Portfolio;
  /** What happens once saved; by default the list of portfolios opens. */
  onSaved?: (saved: Portfolio) => void;
  /** Where Cancel goes (the list by default); null leaves Cancel out. */
  cancelTo?: string | null;
}

/**
 * A portfolio's name and holdings, new or saved. It checks what the server checks before
 * sending; a problem found then, or the server's refusal, is written beside the field it is
 * about and summed up by the Save button, and focus goes to the first field to fix. Saved, it
 * goes back to the list (a toast says so), or does what `onSaved` says.
 */
export function PortfolioForm({ portfolio, onSaved, cancelTo = PORTFOLIOS_PATH }: PortfolioFormProps) {
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  const save = useSavePortfolio(portfolio?.id);
  const state = usePortfolioDraft({
    name: portfolio?.name ?? '',
    rows: portfolio ? rowsOf(portfolio.holdings) : [newRow()],
  });
  const { draft, errors, problems, refusal } = state;
  // Counts the attempts that found a problem: each moves focus to the first field to fix.
  const [attempts, setAttempts] = useState(0);
  useEffect(() => {
    if (attempts) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (save.isPending) return;
    const ready = state.beginSave();
    if (!ready) {
      setAttempts((n) => n + 1);
      return;
    }
    save.mutate(toChange(ready), {
      onSuccess: (saved) => (onSaved ? onSaved(saved) : void navigate(PORTFOLIOS_PATH)),
      onError: (error) => {
        state.refuse(readRefusal(error));
        setAttempts((n) => n + 1);
      },
    });
  };
  // Ctrl+Enter (⌘+Enter) saves from anywhere in the form, Enter in the table moving between rows.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
  };

  const count = problems ? problemCount(problems) : 0;
  return (
    <form ref={form} className="stack" noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-describedby="portfolio-form-help">
      <TextField
        label="Name"
        value={draft.name}
        onChange={(event) => state.setName(event.target.value)}
        error={errors?.name}
        autoComplete="off"
        maxLength={MAX_NAME_CHARS + 20}
        autoFocus={!portfolio}
      />
      <fieldset className="holdings-fieldset">
        <legend className="field-label">Holdings</legend>
        <p id="portfolio-form-help" className="small muted">
          A company’s name, its ISIN (12 characters, like US0378331005) and how many shares you hold. Enter moves to the next
          row; Ctrl+Enter saves.
        </p>
        {errors?.form && (
          <p className="form-error" role="alert">
            {errors.form}
          </p>
        )}
        <HoldingsTable
          rows={draft.rows}
          errors={errors?.rows ?? {}}
          onChange={state.setField}
          onAdd={state.addRow}
          onRemove={state.removeRow}
        />
        <HoldingsPasteBox onAdd={state.addPasted} />
      </fieldset>
      <div aria-live="assertive">
        {refusal ? (
          <p className="form-error" role="alert" data-testid="portfolio-refusal">
            {refusal.message}
          </p>
        ) : (
          count > 0 && (
            <p className="form-error" role="alert">
              {count === 1 ? 'One thing to fix' : `${count} things to fix`} before saving: see the fields marked above.
            </p>
          )
        )}
      </div>
      <p className="form-actions">
        {cancelTo !== null && (
          <Link to={cancelTo} className="button">
            Cancel
          </Link>
        )}
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : portfolio ? 'Save changes' : 'Create portfolio'}
        </button>
      </p>
    </form>
  );
}
