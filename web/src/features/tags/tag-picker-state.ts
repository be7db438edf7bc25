/**
 * The tag picker's state and rules, without React: what the input finds, what Enter does (pick
 * an existing tag, create a new one, or say why not), and the selection being edited.
 */
import { produce } from 'immer';
import type { Tag } from './api/tag-api';
import { MAX_TAG_NAME_CHARS, PLEASE_CREATE_TAG, TAG_NAME_TOO_LONG } from './messages';

export interface PickerState {
  query: string;
  /** The tag ids chosen so far; it starts as the document's. */
  selected: string[];
  /** Why the last attempt to create a tag failed. */
  error: string | null;
}

export type PickerAction =
  | { type: 'query'; query: string }
  | { type: 'toggle'; tagId: string }
  /** A tag was made from the input: it is selected and the input clears. */
  | { type: 'created'; tag: Tag }
  | { type: 'failed'; message: string };

export const initialPickerState = (selected: readonly string[]): PickerState => ({
  query: '',
  selected: [...selected],
  error: null,
});

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Returns the tags whose name holds the input (ignoring case and surrounding spaces); all for a blank input. */
export function filterTags(tags: readonly Tag[], query: string): Tag[] {
  const needle = query.trim().toLowerCase();
  return needle ? tags.filter((t) => t.name.toLowerCase().includes(needle)) : [...tags];
}

/**
 * Returns the name a "Create" option would make from the input, or null: a blank input is not
 * offered, and neither is the name of an existing tag (whatever its case).
 */
export function newTagName(tags: readonly Tag[], query: string): string | null {
  const name = query.trim();
  if (!name || tags.some((t) => sameName(t.name, name))) return null;
  return name;
}

export type Submission =
  | { kind: 'create'; name: string }
  | { kind: 'select'; tag: Tag }
  | { kind: 'invalid'; message: string };

/** Returns what pressing Enter in the input does. */
export function submitQuery(tags: readonly Tag[], query: string): Submission {
  const name = query.trim();
  if (!name) return { kind: 'invalid', message: PLEASE_CREATE_TAG };
  const existing = tags.find((t) => sameName(t.name, name));
  if (existing) return { kind: 'select', tag: existing };
  if ([...name].length > MAX_TAG_NAME_CHARS) return { kind: 'invalid', message: TAG_NAME_TOO_LONG };
  return { kind: 'create', name };
}

/** Returns whether the selection differs from what the document had (order aside). */
export function selectionChanged(base: readonly string[], selected: readonly string[]): boolean {
  const before = new Set(base);
  return before.size !== new Set(selected).size || selected.some((id) => !before.has(id));
}

export const pickerReducer = produce((draft: PickerState, action: PickerAction) => {
  switch (action.type) {
    case 'query':
      draft.query = action.query;
      draft.error = null;
      break;
    case 'toggle': {
      const at = draft.selected.indexOf(action.tagId);
      if (at >= 0) draft.selected.splice(at, 1);
      else draft.selected.push(action.tagId);
      break;
    }
    case 'created':
      if (!draft.selected.includes(action.tag.id)) draft.selected.push(action.tag.id);
      draft.query = '';
      draft.error = null;
      break;
    case 'failed':
      draft.error = action.message;
      break;
  }
});
