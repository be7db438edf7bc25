import { useQuery } from '@tanstack/react-query';
import { useId, useState, type Dispatch, type FormEvent, type KeyboardEvent } from 'react';
import { XIcon } from '../../../components/ui/icons';
import { boardQueries, type FeedDefinition } from '../api/feeds-api';
import type { BuilderAction } from '../builder-state';

const list = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);

/**
 * An AI feed's own fields: the companies it follows (name, and optionally ISIN, exchange codes
 * and aliases; the first one names an unnamed feed), the topics it classifies documents into, and
 * attributes.
 */
export function AiFeedFields({ definition, dispatch }: { definition: FeedDefinition; dispatch: Dispatch<BuilderAction> }) {
  const choices = useQuery(boardQueries.choices());
  const attributesId = useId();
  return (
    <div className="stack">
      <CompanyForm dispatch={dispatch} />
      {definition.companies.length > 0 && (
        <ul className="chip-list" aria-label="Companies">
          {definition.companies.map((c) => (
            <li key={c.name} className="chip">
              <span className="chip-text">
                {c.name}
                {c.codes?.length ? <span className="small muted"> {c.codes.join(', ')}</span> : null}
              </span>
              <button type="button" className="chip-remove" aria-label={`Remove ${c.name}`} onClick={() => dispatch({ type: 'company.remove', name: c.name })}>
                <XIcon size={14} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {choices.data && choices.data.topics.length > 0 && (
        <fieldset className="feed-topics">
          <legend>Topics</legend>
          <div className="checkbox-grid">
            {choices.data.topics.map((t) => (
              <label key={t.key} className="checkbox-row" title={t.description ?? undefined}>
                <input
                  type="checkbox"
                  checked={definition.topics.includes(t.key)}
                  onChange={(e) => dispatch({ type: 'topic.toggle', topic: t.key, on: e.target.checked })}
                />
                {t.label}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="field">
        <label className="field-label" htmlFor={attributesId}>
          Attributes (comma separated)
        </label>
        <input
          id={attributesId}
          className="input"
          defaultValue={definition.attributes.join(', ')}
          onBlur={(e) => dispatch({ type: 'attributes.set', attributes: list(e.target.value) })}
        />
      </div>
    </div>
  );
}

function CompanyForm({ dispatch }: { dispatch: Dispatch<BuilderAction> }) {
  const [name, setName] = useState('');
  const [codes, setCodes] = useState('');
  const [isin, setIsin] = useState('');
  const add = (event?: FormEvent | KeyboardEvent) => {
    event?.preventDefault();
    if (!name.trim()) return;
    dispatch({
      type: 'company.add',
      company: { name, ...(isin.trim() ? { isin: isin.trim() } : {}), ...(list(codes).length ? { codes: list(codes) } : {}) },
    });
    setName('');
    setCodes('');
    setIsin('');
  };
  const onEnter = (event: KeyboardEvent) => {
    if (event.key === 'Enter') add(event);
  };
  return (
    <fieldset className="feed-company-form">
      <legend>Companies</legend>
      <div className="feed-company-fields">
        <label className="field">
          <span className="field-label">Company name</span>
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} onKeyDown={onEnter} />
        </label>
        <label className="field">
          <span className="field-label">Exchange codes</span>
          <input className="input" value={codes} placeholder="INFY, 500209" onChange={(e) => setCodes(e.target.value)} onKeyDown={onEnter} />
        </label>
        <label className="field">
          <span className="field-label">ISIN</span>
          <input className="input" value={isin} onChange={(e) => setIsin(e.target.value)} onKeyDown={onEnter} />
        </label>
        <button type="button" className="button" disabled={!name.trim()} onClick={() => add()}>
          Add company
        </button>
      </div>
    </fieldset>
  );
}
