/** The spec's words for notebooks and notes, verbatim, and the few of our own. */
export const CREATE_A_NOTEBOOK = 'Please create a Notebook';
export const NOTE_CREATED = 'Note created successfully!';
export const ADD_TO_NOTES_FAILED = 'Add to Notes failed! Please contact us!';
export const NOTEBOOK_NAME_TOO_LONG = 'Notebook name must be at most 100 characters';
export const UNTITLED_NOTE = 'Untitled note';
