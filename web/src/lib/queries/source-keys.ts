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
  /** Everything about SEC EDGAR: the companies followed there and the company search. */
  edgar: () => [...sourceKeys.all(), 'edgar'] as const,
  /** Whether EDGAR is on here, its forms, and the companies the user follows. */
  edgarFollowed: () => [...sourceKeys.edgar(), 'followed'] as const,
  /** The companies EDGAR's list has for what was typed (a ticker, CIK or part of a name). */
  edgarCompanies: (q: string) => [...sourceKeys.edgar(), 'companies', q] as const,
};
