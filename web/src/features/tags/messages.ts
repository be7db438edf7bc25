/** The tag and bookmark texts the spec gives, and the ones this feature adds. */

/** The tag picker's input placeholder. */
export const FIND_OR_CREATE_TAG = 'Find tag or create one';
/** The picker's text with no tags yet, and its answer to creating a blank one. */
export const PLEASE_CREATE_TAG = 'Please create a Tag';
/** The picker's confirm button. */
export const TAGS_DONE = 'Done';

/** The longest tag name the server takes. */
export const MAX_TAG_NAME_CHARS = 50;
export const TAG_NAME_TOO_LONG = `A tag name can be at most ${MAX_TAG_NAME_CHARS} characters`;

export const BOOKMARK_FAILED = 'Your bookmark could not be saved. Please try again';
export const TAGS_SAVE_FAILED = 'Your tags could not be saved. Please try again';
