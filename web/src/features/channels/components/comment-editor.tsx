import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { COMMENT_EMPTY, COMMENT_PLACEHOLDER } from '../messages';
import { insertMention, mentionedIds, mentionQueryAt, suggestMembers, type Mentionable, type MentionQuery } from '../mentions';

export interface CommentEditorProps {
  /** The accessible name of the text box. */
  label: string;
  initialText?: string;
  /** The members the text already mentions (an edited comment's). */
  initialMentions?: readonly Mentionable[];
  /** Who can be mentioned; `null` turns mentions off (a published group). */
  members: readonly Mentionable[] | null;
  /** The user, left out of the suggestions. */
  selfId?: string | null;
  /** Saves the text and the user ids it mentions; resolves true when the editor may clear. */
  onSave: (text: string, mentions: string[]) => Promise<boolean>;
  /** Given when editing: Escape discards the edit. */
  onCancel?: () => void;
  pending?: boolean;
  /** The server's refusal of the last save. */
  error?: string | null;
  submitLabel?: string;
}

/**
 * A comment box: Enter saves, Shift+Enter adds a line, Escape discards an edit. An empty comment
 * is not sent. Typing `@` offers the group's members (arrow keys, Enter or Tab to pick).
 */
export function CommentEditor({ label, initialText = '', initialMentions = [], members, selfId, onSave, onCancel, pending = false, error, submitLabel = 'Comment' }: CommentEditorProps) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  /** Where the caret goes once a picked mention is in the box. */
  const caret = useRef<number | null>(null);
  const [text, setText] = useState(initialText);
  const [chosen, setChosen] = useState<Mentionable[]>([...initialMentions]);
  const [at, setAt] = useState<MentionQuery | null>(null);
  const [active, setActive] = useState(0);
  const [empty, setEmpty] = useState(false);
  const suggestions = members && at ? suggestMembers(members, at.query, selfId) : [];
  const open = suggestions.length > 0;
  const message = empty ? COMMENT_EMPTY : error;

  const track = (value: string, caret: number) => {
    setText(value);
    setEmpty(false);
    const next = members ? mentionQueryAt(value, caret) : null;
    setAt(next);
    setActive(0);
  };

  const pick = (member: Mentionable) => {
    if (!at || !box.current) return;
    const result = insertMention(text, box.current.selectionStart, at, member.username);
    setText(result.text);
    setChosen((list) => [...list, member]);
    setAt(null);
    caret.current = result.caret;
  };

  // Placed as soon as the new text is in the DOM, before any further keystroke is handled: a later
  // frame could land between two typed characters and move the caret back.
  useLayoutEffect(() => {
    if (caret.current === null) return;
    box.current?.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [text]);

  const save = async () => {
    if (pending) return;
    if (!text.trim()) {
      setEmpty(true);
      return;
    }
    const cleared = await onSave(text.trim(), members ? mentionedIds(text, chosen) : []);
    if (cleared && !onCancel) {
      setText('');
      setChosen([]);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(suggestions[active]);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setAt(null);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };

  return (
    <div className="comment-editor">
      <textarea
        ref={box}
        className="input comment-input"
        aria-label={label}
        placeholder={COMMENT_PLACEHOLDER}
        rows={2}
        value={text}
        autoFocus={Boolean(onCancel)}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : `${id}-hint`}
        aria-autocomplete={members ? 'list' : undefined}
        aria-controls={open ? `${id}-mentions` : undefined}
        aria-activedescendant={open ? `${id}-mention-${active}` : undefined}
        onChange={(event) => track(event.target.value, event.target.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => setAt(null)}
      />
      {open && (
        <ul id={`${id}-mentions`} role="listbox" aria-label="Mention a member" className="mention-list">
          {suggestions.map((member, index) => (
            <li
              key={member.user_id}
              id={`${id}-mention-${index}`}
              role="option"
              aria-selected={index === active}
              className="mention-option"
              onMouseDown={(event) => {
                event.preventDefault();
                pick(member);
              }}
            >
              @{member.username}
            </li>
          ))}
        </ul>
      )}
      {message && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {message}
        </p>
      )}
      <div className="comment-editor-actions">
        <p id={`${id}-hint`} className="small muted">
          Enter to save, Shift+Enter for a new line{onCancel ? ', Escape to discard' : ''}
          {members ? '. Type @ to mention a member' : ''}
        </p>
        {onCancel && (
          <button type="button" className="button button-quiet" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="button" className="button button-primary" disabled={pending} onClick={() => void save()}>
          {pending ? 'Saving…' : submitLabel}
        </button>
      </div>
    </div>
  );
}
