import { useEffect, useId, useRef, useState } from 'react';
import {
  currentScopeChoice,
  isNarrowed,
  targetOfChoice,
  type ScopeChoice,
  type SearchTarget,
} from '../search-scope';
import type { SearchState } from '../search-state';
import { SearchIcon } from '../../../components/ui/icons';

export interface SearchQueryBarProps {
  scope: string | null;
  state: SearchState;
  /** Where a narrowed search looks ("Website & RSS", "this feed"), for the "Search in" choice. */
  here: string;
  /** The server's reason for refusing the query, shown under the box. */
  error: string | null;
  onSearch: (target: SearchTarget, q: string) => void;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The search page's own box: where to search (the spec's four boxes: My Data, the current feed
 * or narrower scope, Needl Web, shared data) and what for. The server's refusal of a query (an
 * unbalanced parenthesis...) shows under it, tied to the input. "/" puts the caret in it.
 */
export function SearchQueryBar({ scope, state, here, error, onSearch }: SearchQueryBarProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(state.q);
  const choice = currentScopeChoice(scope, state);

  // Back and forward change the query under the box.
  useEffect(() => setText(state.q), [state.q]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const search = (next: ScopeChoice, q: string) => {
    if (q.trim()) onSearch(targetOfChoice(next, scope, state), q);
  };

  return (
    <form
      role="search"
      aria-label="Search"
      className="search-query-bar"
      onSubmit={(event) => {
        event.preventDefault();
        search(choice, text);
      }}
    >
      <div className="search-query-row">
        <label className="visually-hidden" htmlFor={`${id}-in`}>
          Search in
        </label>
        <select
          id={`${id}-in`}
          className="input select search-scope"
          value={choice}
          onChange={(event) => search(event.target.value as ScopeChoice, text || state.q)}
        >
          {isNarrowed(scope, state) && <option value="here">{capitalise(here)}</option>}
          <option value="my_data">My Data</option>
          <option value="needl_web">Needl Web</option>
          <option value="shared_data">Shared Data</option>
        </select>
        <label className="visually-hidden" htmlFor={`${id}-q`}>
          Search for
        </label>
        <input
          ref={input}
          id={`${id}-q`}
          type="search"
          className="input search-query-input"
          placeholder={'Words, "a phrase", AND, OR, NOT, (groups)'}
          autoComplete="off"
          enterKeyHint="search"
          aria-keyshortcuts="/"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button button-primary">
          <SearchIcon className="search-icon" size={18} />
          Search
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert" data-testid="search-error">
          {error}
        </p>
      )}
    </form>
  );
}
