import { useId, useState, type Dispatch, type KeyboardEvent } from 'react';
import { XIcon } from '../../../components/ui/icons';
import type { FeedDefinition, KeywordList } from '../api/feeds-api';
import type { BuilderAction, KeywordView } from '../builder-state';
import { checkKeyword } from '../keywords';

const LIST_LABEL: Record<KeywordList, string> = { include: 'Include', exclude: 'Exclude' };
const VIEWS: ReadonlyArray<{ view: KeywordView; label: string }> = [
  { view: 'all', label: 'All' },
  { view: 'include', label: 'Included' },
  { view: 'exclude', label: 'Excluded' },
];

export interface KeywordEditorProps {
  definition: FeedDefinition;
  view: KeywordView;
  dispatch: Dispatch<BuilderAction>;
}

/**
 * The keyword editor: type an expression, choose Include or Exclude, Enter adds it (checked as
 * you go, with the spec's messages). Keywords show as chips, all or one list at a time; each can
 * be edited (back into the box) or removed.
 */
export function KeywordEditor({ definition, view, dispatch }: KeywordEditorProps) {
  const inputId = useId();
  const errorId = useId();
  const [text, setText] = useState('');
  const [list, setList] = useState<KeywordList>('include');
  const [editing, setEditing] = useState<{ list: KeywordList; keyword: string } | null>(null);
  const check = text.trim() ? checkKeyword(text) : null;
  const message = check && !check.valid ? check.message : '';

  const add = () => {
    const result = checkKeyword(text);
    if (!result.valid) return;
    if (editing && editing.list === list) dispatch({ type: 'keyword.edit', list, from: editing.keyword, to: result.keyword });
    else {
      if (editing) dispatch({ type: 'keyword.remove', list: editing.list, keyword: editing.keyword });
      dispatch({ type: 'keyword.add', list, keyword: result.keyword });
    }
    setText('');
    setEditing(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    } else if (event.key === 'Escape' && (text || editing)) {
      // The first Escape clears the box; the next one closes the overlay.
      event.preventDefault();
      setText('');
      setEditing(null);
    }
  };

  const shown = (['include', 'exclude'] as const).filter((l) => view === 'all' || view === l);
  return (
    <fieldset className="feed-keywords stack">
      <legend>Keywords</legend>
      <div className="feed-keyword-entry">
        <div className="segmented" role="group" aria-label="Add keywords to">
          {(['include', 'exclude'] as const).map((l) => (
            <button key={l} type="button" className="button button-small" aria-pressed={list === l} onClick={() => setList(l)}>
              {LIST_LABEL[l]}
            </button>
          ))}
        </div>
        <label className="field feed-keyword-field" htmlFor={inputId}>
          <span className="field-label">{editing ? 'Edit keyword' : `Keyword to ${list}`}</span>
          <input
            id={inputId}
            className="input"
            value={text}
            placeholder={'e.g. "rate cut" OR inflation'}
            aria-invalid={Boolean(message)}
            aria-describedby={message ? errorId : undefined}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
          />
        </label>
        <button type="button" className="button" disabled={!check?.valid} onClick={add}>
          {editing ? 'Save keyword' : 'Add'}
        </button>
      </div>
      {message && (
        <p id={errorId} className="form-error" role="alert">
          {message}
        </p>
      )}
      <div className="segmented" role="group" aria-label="Show keywords">
        {VIEWS.map(({ view: v, label }) => (
          <button
            key={v}
            type="button"
            className="button button-small button-quiet"
            aria-pressed={view === v}
            disabled={v !== 'all' && definition.keywords[v].length === 0}
            onClick={() => dispatch({ type: 'keywords.view', view: v })}
          >
            {label}
            {v !== 'all' && ` (${definition.keywords[v].length})`}
          </button>
        ))}
      </div>
      {shown.map((l) => (
        <KeywordChips
          key={l}
          list={l}
          definition={definition}
          onEdit={(keyword) => {
            setEditing({ list: l, keyword });
            setList(l);
            setText(keyword);
          }}
          onRemove={(keyword) => dispatch({ type: 'keyword.remove', list: l, keyword })}
        />
      ))}
    </fieldset>
  );
}

function KeywordChips({ list, definition, onEdit, onRemove }: { list: KeywordList; definition: FeedDefinition; onEdit: (keyword: string) => void; onRemove: (keyword: string) => void }) {
  const keywords = definition.keywords[list];
  const label = list === 'include' ? 'Included keywords' : 'Excluded keywords';
  if (keywords.length === 0) return null;
  return (
    <ul className={`chip-list keyword-chips keyword-chips-${list}`} aria-label={label}>
      {keywords.map(({ keyword }) => (
        <li key={keyword} className="chip">
          <button type="button" className="chip-text" onClick={() => onEdit(keyword)} aria-label={`Edit ${keyword}`}>
            {list === 'exclude' && <span aria-hidden="true">− </span>}
            {keyword}
          </button>
          <button type="button" className="chip-remove" aria-label={`Remove ${keyword}`} onClick={() => onRemove(keyword)}>
            <XIcon size={14} aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}
