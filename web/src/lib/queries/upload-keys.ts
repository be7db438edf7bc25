/**
 * Query keys for uploads, from general to specific. Shared with the live-event mapping
 * (src/lib), which refreshes upload statuses when the server finishes or fails a file.
 */
export const uploadKeys = {
  all: () => ['uploads'] as const,
  /** The upload limits of one upload source (`needldrive`, `ask_needl`). */
  config: (source: string) => [...uploadKeys.all(), 'config', source] as const,
  statuses: () => [...uploadKeys.all(), 'status'] as const,
  /** The statuses of one batch of files, by their ids. */
  status: (ids: readonly string[]) => [...uploadKeys.statuses(), [...ids]] as const,
};
