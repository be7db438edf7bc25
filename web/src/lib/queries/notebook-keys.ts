/**
 * Query keys for notebooks and notes, from general to specific. They live here rather than in
 * the notebooks feature because the live-event mapping (src/lib) invalidates them too.
 */
export const notebookKeys = {
  all: () => ['notebooks'] as const,
  /** The user's notebooks (the shelf), with their note counts. */
  lists: () => [...notebookKeys.all(), 'list'] as const,
  details: () => [...notebookKeys.all(), 'detail'] as const,
  /** One notebook with its notes' previews. */
  notebook: (notebookId: string) => [...notebookKeys.details(), notebookId] as const,
  notes: () => [...notebookKeys.all(), 'note'] as const,
  /** One note with its body. */
  note: (noteId: string) => [...notebookKeys.notes(), noteId] as const,
};
