import { PLEASE_CREATE_TAG, TAG_NAME_TOO_LONG } from './messages';
import { filterTags, initialPickerState, newTagName, pickerReducer, selectionChanged, submitQuery } from './tag-picker-state';

const risk = { id: 't1', name: 'Risk' };
const macro = { id: 't2', name: 'Macro outlook' };
const tags = [macro, risk];

describe('the tag picker', () => {
  it('finds tags whose name holds the input, ignoring case and spaces', () => {
    expect(filterTags(tags, '  OUT ')).toEqual([macro]);
    expect(filterTags(tags, 'ris')).toEqual([risk]);
    expect(filterTags(tags, 'nothing')).toEqual([]);
    expect(filterTags(tags, '   ')).toEqual(tags);
  });

  it('offers to create a new name, but not a blank one or one that exists in another case', () => {
    expect(newTagName(tags, ' Credit ')).toBe('Credit');
    expect(newTagName(tags, '   ')).toBeNull();
    expect(newTagName(tags, 'risk')).toBeNull();
    expect(newTagName(tags, ' MACRO OUTLOOK')).toBeNull();
  });

  it('asks for a name when Enter is pressed on a blank input', () => {
    expect(submitQuery(tags, '  ')).toEqual({ kind: 'invalid', message: PLEASE_CREATE_TAG });
  });

  it('picks the existing tag when Enter is pressed on its name', () => {
    expect(submitQuery(tags, 'RISK ')).toEqual({ kind: 'select', tag: risk });
  });

  it('creates a new tag from the trimmed input, up to 50 characters', () => {
    expect(submitQuery(tags, ' Credit ')).toEqual({ kind: 'create', name: 'Credit' });
    expect(submitQuery(tags, 'x'.repeat(50))).toEqual({ kind: 'create', name: 'x'.repeat(50) });
    expect(submitQuery(tags, 'x'.repeat(51))).toEqual({ kind: 'invalid', message: TAG_NAME_TOO_LONG });
  });

  it('toggles tags in and out of the selection without touching the state it came from', () => {
    const start = initialPickerState(['t1']);
    const added = pickerReducer(start, { type: 'toggle', tagId: 't2' });
    expect(added.selected).toEqual(['t1', 't2']);
    expect(start.selected).toEqual(['t1']);
    expect(pickerReducer(added, { type: 'toggle', tagId: 't1' }).selected).toEqual(['t2']);
  });

  it('selects a tag just created and clears the input and any error', () => {
    let state = initialPickerState([]);
    state = pickerReducer(state, { type: 'query', query: 'Credit' });
    state = pickerReducer(state, { type: 'failed', message: 'boom' });
    expect(state.error).toBe('boom');
    state = pickerReducer(state, { type: 'created', tag: { id: 't9', name: 'Credit' } });
    expect(state).toEqual({ query: '', selected: ['t9'], error: null });
  });

  it('clears an error as the user types', () => {
    const failed = pickerReducer(initialPickerState([]), { type: 'failed', message: PLEASE_CREATE_TAG });
    expect(pickerReducer(failed, { type: 'query', query: 'a' }).error).toBeNull();
  });

  it('tells whether the selection changed, whatever its order', () => {
    expect(selectionChanged(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(selectionChanged(['a'], ['a', 'b'])).toBe(true);
    expect(selectionChanged(['a', 'b'], ['a'])).toBe(true);
    expect(selectionChanged(['a'], ['b'])).toBe(true);
    expect(selectionChanged([], [])).toBe(false);
  });
});
