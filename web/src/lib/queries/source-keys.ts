/**
 * Query keys for followed sources, from general to specific. Shared with the live-event mapping
 * (src/lib), which invalidates them when a source is followed, unfollowed or re-prioritised.
 */
export const sourceKeys = {
  all: () => ['sources'] as const,
  rss: () => [...sourceKeys.all(), 'rss'] as const,
  /** The followed websites. */
  websites: () => [...sourceKeys.all(), 'websites'] as const,
  /** The instance's public source catalogue, with which entries the user follows. */
  catalogue: () => [...sourceKeys.all(), 'catalogue'] as const,
  /** The topics of suggested feeds. */
  topics: () => [...sourceKeys.all(), 'topics'] as const,
  /** The feeds suggested under one topic, with which the user follows. */
  topic: (key: string) => [...sourceKeys.topics(), key] as const,
};
