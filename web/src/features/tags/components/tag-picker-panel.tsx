import { useQuery } from '@tanstack/react-query';
import { useId, useReducer, useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { tagQueries, type Tag } from '../api/tag-api';
import { useCreateTag, useSaveDocumentTags } from '../hooks/use-tag-mutations';
import { FIND_OR_CREATE_TAG, PLEASE_CREATE_TAG, TAGS_DONE } from '../messages';
import { filterTags, initialPickerState, newTagName, pickerReducer, selectionChanged, submitQuery } from '../tag-picker-state';

export interface TagPickerPanelProps {
  deeplink: string;
  /** The tags on the document as the picker opens (later changes are not taken up). */
  base: Tag[];
  channelId: string | null;
  feedId: string | null;
  onClose: () => void;
}

const failureText = (error: unknown) => (isApiError(error) && error.status < 500 ? error.message : 'The tag could not be created. Please try again');

/** Returns the user's tags, with any already on the document that are not theirs (a channel's). */
const choicesOf = (userTags: Tag[], base: Tag[]) => [...userTags, ...base.filter((t) => !userTags.some((u) => u.id === t.id))];

/**
 * The picker: an input that finds the user's tags or creates one (Enter, or the Create option),
 * a checkbox per tag, and Done, which saves the selection (or just closes when nothing changed).
 */
export function TagPickerPanel({ deeplink, base, channelId, feedId, onClose }: TagPickerPanelProps) {
  // What the document had when the picker opened: the base of the change, however the card's
  // tags change meanwhile (someone tagging elsewhere).
  const [opened] = useState(base);
  const [baseIds] = useState(() => base.map((t) => t.id));
  const [state, dispatch] = useReducer(pickerReducer, baseIds, initialPickerState);
  const userTags = useQuery(tagQueries.userTags());
  const create = useCreateTag();
  const save = useSaveDocumentTags();
  const errorId = useId();
  const choices = choicesOf(userTags.data ?? [], opened);
  const shown = filterTags(choices, state.query);
  const offer = newTagName(choices, state.query);

  const makeTag = (name: string) =>
    create.mutate(name, {
      onSuccess: (tag) => dispatch({ type: 'created', tag }),
      onError: (error) => dispatch({ type: 'failed', message: failureText(error) }),
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const submission = submitQuery(choices, state.query);
    if (submission.kind === 'invalid') dispatch({ type: 'failed', message: submission.message });
    else if (submission.kind === 'create') makeTag(submission.name);
    else {
      if (!state.selected.includes(submission.tag.id)) dispatch({ type: 'toggle', tagId: submission.tag.id });
      dispatch({ type: 'query', query: '' });
    }
  };

  const done = () => {
    if (!selectionChanged(baseIds, state.selected)) return onClose();
    save.mutate({ deeplink, tags: state.selected, base: baseIds, channelId, feedId }, { onSuccess: onClose });
  };

  return (
    <div className="tag-picker-body">
      <form onSubmit={onSubmit}>
        <input
          className="input"
          type="text"
          aria-label={FIND_OR_CREATE_TAG}
          placeholder={FIND_OR_CREATE_TAG}
          value={state.query}
          autoFocus
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? errorId : undefined}
          onChange={(event) => dispatch({ type: 'query', query: event.target.value })}
        />
      </form>
      {state.error && (
        <p id={errorId} className="field-error" role="alert">
          {state.error}
        </p>
      )}
      {userTags.isPending ? (
        <Spinner label="Loading your tags" />
      ) : choices.length === 0 && !offer ? (
        !state.error && <p className="muted small">{PLEASE_CREATE_TAG}</p>
      ) : (
        <ul className="tag-picker-list" aria-label="Your tags">
          {shown.map((tag) => (
            <li key={tag.id}>
              <label className="tag-option">
                <input
                  type="checkbox"
                  checked={state.selected.includes(tag.id)}
                  onChange={() => dispatch({ type: 'toggle', tagId: tag.id })}
                />
                <span>{tag.name}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {offer && (
        <button type="button" className="button button-quiet tag-create" disabled={create.isPending} onClick={() => makeTag(offer)}>
          {create.isPending ? 'Creating…' : `Create “${offer}”`}
        </button>
      )}
      <div className="tag-picker-actions">
        <button type="button" className="button button-primary" disabled={save.isPending || create.isPending} onClick={done}>
          {save.isPending ? 'Saving…' : TAGS_DONE}
        </button>
      </div>
    </div>
  );
}
