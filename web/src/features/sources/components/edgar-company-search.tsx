import { useSelector } from '@xstate/react';
import { useId, type KeyboardEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { Company } from '../api/edgar-api';
import type { companySearchMachine } from '../company-search.machine';
import { companyLabel } from '../edgar-display';
import { useCompanySuggestions } from '../hooks/use-company-suggestions';

export interface EdgarCompanySearchProps {
  search: ActorRefFrom<typeof companySearchMachine>;
  /** Why the typed text cannot be followed, from the form's own check. */
  error?: string;
}

/**
 * The company box: a combobox whose options are the companies matching what is typed. Arrow
 * keys move through them, Enter or a click picks one, Escape closes them (and then clears the
 * box). Searching, no match and a search that cannot run are said under the box, in a live region.
 */
export function EdgarCompanySearch({ search, error }: EdgarCompanySearchProps) {
  const id = useId();
  const [inputId, listId, hintId, errorId] = ['input', 'options', 'hint', 'error'].map((part) => `${id}-${part}`);
  const text = useSelector(search, (s) => s.context.text);
  const active = useSelector(search, (s) => s.context.active);
  const open = useSelector(search, (s) => s.matches('open'));
  const { options, note } = useCompanySuggestions(text, open);
  const expanded = open && options.length > 0;
  const activeOption = expanded ? options[active] : undefined;
  const optionId = (company: Company) => `${id}-option-${company.cik}`;
  const pick = (company: Company) => search.send({ type: 'company.pick', cik: company.cik, label: companyLabel(company) });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      search.send({ type: event.key === 'ArrowDown' ? 'company.next' : 'company.previous', count: options.length });
    } else if (event.key === 'Enter' && activeOption) {
      // Enter on an option picks it; without one it submits the form, following what was typed.
      event.preventDefault();
      pick(activeOption);
    } else if (event.key === 'Escape' && text) {
      event.preventDefault();
      search.send({ type: open ? 'company.close' : 'company.clear' });
    }
  };

  return (
    <div className="field edgar-search">
      <label className="field-label" htmlFor={inputId}>
        Company
      </label>
      <div className="edgar-search-box">
        <input
          id={inputId}
          className="input"
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          placeholder="AAPL, 320193 or Apple"
          value={text}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={activeOption ? optionId(activeOption) : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => search.send({ type: 'company.type', text: event.target.value })}
          onKeyDown={onKeyDown}
          onBlur={() => search.send({ type: 'company.close' })}
        />
        <ul id={listId} role="listbox" aria-label="Matching companies" className="edgar-search-listbox" hidden={!expanded}>
          {options.map((company, index) => (
            <li
              key={company.cik}
              id={optionId(company)}
              role="option"
              aria-selected={index === active}
              className="edgar-search-option"
              // Picked before the box loses focus to the click.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(company);
              }}
            >
              {companyLabel(company)}
            </li>
          ))}
        </ul>
      </div>
      <p id={hintId} className="field-hint">
        A ticker (AAPL), a CIK (320193) or the start of a company’s name.
      </p>
      {/* Always in the layout: a note that came and went on blur would move the Follow button
          from under a pointer pressing it, and the press would miss. */}
      <p role="status" className="field-hint edgar-search-note">
        {note}
      </p>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
