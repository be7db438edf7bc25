import { useId, useState } from 'react';
import { parseHoldingLines, type PastedHolding } from '../holdings-paste';

/**
 * Adds many holdings at once from pasted lines ("company,isin,quantity", or cells copied from a
 * spreadsheet). Lines it cannot read stay in the box, each named with the reason.
 */
export function HoldingsPasteBox({ onAdd }: { onAdd: (holdings: PastedHolding[]) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<{ added: number; problems: string[] } | null>(null);

  const add = () => {
    const result = parseHoldingLines(text);
    if (result.holdings.length) onAdd(result.holdings);
    setText(result.unread.join('\n'));
    setOutcome({ added: result.holdings.length, problems: result.problems });
  };

  return (
    <details className="holdings-paste">
      <summary>Paste many holdings</summary>
      <div className="stack">
        <div className="field">
          <label className="field-label" htmlFor={id}>
            Holdings to add, one a line: company, ISIN, quantity
          </label>
          <textarea
            id={id}
            className="input holdings-paste-text"
            rows={5}
            value={text}
            placeholder={'Apple Inc.,US0378331005,120.5\nBayer AG,DE000BAY0017,40'}
            spellCheck={false}
            aria-describedby={outcome?.problems.length ? `${id}-problems` : undefined}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <p>
          <button type="button" className="button" onClick={add} disabled={!text.trim()}>
            Add these holdings
          </button>
        </p>
        <div aria-live="polite">
          {outcome && (
            <p className="small">
              {outcome.added === 0 ? 'No holdings added.' : `Added ${outcome.added} ${outcome.added === 1 ? 'holding' : 'holdings'} to the table.`}
            </p>
          )}
          {outcome && outcome.problems.length > 0 && (
            <ul id={`${id}-problems`} className="form-error holdings-paste-problems">
              {outcome.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </details>
  );
}
