/** The rules a notebook's name follows before it is sent (the server checks them again). */
import { CREATE_A_NOTEBOOK, NOTEBOOK_NAME_TOO_LONG } from './messages';

/** The server's limit, in characters (code points) after trimming. */
export const MAX_NOTEBOOK_NAME_CHARS = 100;

export type NameCheck = { ok: true; name: string } | { ok: false; error: string };

/**
 * Returns the trimmed name, or why it is refused: blank gives the spec's 'Please create a
 * Notebook'; longer than the server takes gives our own message. A name already in use is left
 * to the server, whose answer names the clash.
 */
export function checkNotebookName(raw: string): NameCheck {
  const name = raw.trim();
  if (!name) return { ok: false, error: CREATE_A_NOTEBOOK };
  if ([...name].length > MAX_NOTEBOOK_NAME_CHARS) return { ok: false, error: NOTEBOOK_NAME_TOO_LONG };
  return { ok: true, name };
}
