import { useMachine } from '@xstate/react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { searchBoxMachine } from '../search-box.machine';
import { SearchIcon, XIcon } from '../../../components/ui/icons';

export interface ExpandableSearchProps {
  /** What the box searches ("Search My Data"): the button's name, the input's label and placeholder. */
  label: string;
  onSubmit: (q: string) => void;
  /** Whether "/" anywhere outside a text field opens the box. */
  slashShortcut?: boolean;
}

/** Returns whether a key press happened where typing goes into a field. */
const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * A search box that is an icon button until it is used (see `search-box.machine.ts` for its
 * rules). Enter searches; Escape closes; the close button clears and closes.
 */
export function ExpandableSearch({ label, onSubmit, slashShortcut = true }: ExpandableSearchProps) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<'input' | 'toggle' | null>(null);
  const submit = useRef(onSubmit);
  submit.current = onSubmit;

  const [logic] = useState(() =>
    searchBoxMachine.provide({
      actions: {
        submit: (_, { text }) => submit.current(text),
        focusInput: () => (focusNext.current = 'input'),
        focusToggle: () => (focusNext.current = 'toggle'),
      },
    }),
  );
  const [snapshot, send] = useMachine(logic, { input: {} });
  const expanded = snapshot.matches('expanded');
  const { text } = snapshot.context;

  // Focus moves once the element the machine asked for is on the page.
  useLayoutEffect(() => {
    const target = focusNext.current === 'input' ? input.current : focusNext.current === 'toggle' ? toggle.current : null;
    if (!target) return;
    focusNext.current = null;
    target.focus();
  }, [expanded]);

  useEffect(() => {
    if (!slashShortcut) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      event.preventDefault();
      if (expanded) input.current?.focus();
      else send({ type: 'search.open' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [slashShortcut, expanded, send]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      // A search input would clear itself on Escape; here Escape closes the box instead.
      event.preventDefault();
      send({ type: 'search.escape' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      send({ type: 'search.submit' });
    }
  };
  // Moving to the close button is not leaving the box.
  const onBlur = (event: FocusEvent<HTMLInputElement>) => {
    if (!form.current?.contains(event.relatedTarget as Node | null)) send({ type: 'search.blur' });
  };

  return (
    <form
      ref={form}
      role="search"
      aria-label={label}
      className="expandable-search"
      data-state={expanded ? 'expanded' : 'collapsed'}
      onSubmit={(event) => {
        event.preventDefault();
        send({ type: 'search.submit' });
      }}
    >
      {expanded ? (
        <>
          <label className="visually-hidden" htmlFor={id}>
            {label}
          </label>
          <SearchIcon className="search-icon" size={18} />
          <input
            ref={input}
            id={id}
            type="search"
            className="input expandable-search-input"
            placeholder={label}
            autoComplete="off"
            enterKeyHint="search"
            value={text}
            onChange={(event) => send({ type: 'search.type', text: event.target.value })}
            onKeyDown={onKeyDown}
            onBlur={onBlur}
          />
          <button
            type="button"
            className="icon-button expandable-search-close"
            aria-label="Clear and close search"
            onClick={() => send({ type: 'search.close' })}
          >
            <XIcon size={18} />
          </button>
        </>
      ) : (
        <button
          ref={toggle}
          type="button"
          className="icon-button"
          aria-label={label}
          aria-expanded={false}
          aria-keyshortcuts={slashShortcut ? '/' : undefined}
          title={slashShortcut ? `${label} (/)` : label}
          onClick={() => send({ type: 'search.open' })}
        >
          <SearchIcon className="search-icon" size={18} />
        </button>
      )}
    </form>
  );
}
