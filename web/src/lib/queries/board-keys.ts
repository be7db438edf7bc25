/**
 * Query keys for custom feeds (the spec's boards), from general to specific. They live here
 * rather than in the feeds feature because the live-event mapping (src/lib) invalidates them.
 */
export const boardKeys = {
  all: () => ['boards'] as const,
  /** The user's feeds (the side navigation, the settings list, Add to Feeds). */
  list: () => [...boardKeys.all(), 'list'] as const,
  /** Every cached fact about one feed: its definition, its documents, its sources and groups. */
  board: (boardId: string) => [...boardKeys.all(), 'board', boardId] as const,
  definition: (boardId: string) => [...boardKeys.board(boardId), 'definition'] as const,
  /** One feed's documents, paged; `tab` is one of the feed's sub-tabs (null: every document). */
  documents: (boardId: string, tab: string | null = null) => [...boardKeys.board(boardId), 'documents', { tab }] as const,
  channels: (boardId: string) => [...boardKeys.board(boardId), 'channels'] as const,
  sources: (boardId: string) => [...boardKeys.board(boardId), 'sources'] as const,
  /** Suggested questions for the assistant scoped to one feed. */
  questions: (boardId: string) => [...boardKeys.board(boardId), 'questions'] as const,
  /** The builder's choices: sources, categories, date ranges, topics. */
  choices: () => [...boardKeys.all(), 'choices'] as const,
  templates: () => [...boardKeys.all(), 'templates'] as const,
  suggestions: () => [...boardKeys.all(), 'suggestions'] as const,
  /** A draft definition's matches (nothing stored); `draft` is the definition's JSON text. */
  preview: (draft: string) => [...boardKeys.all(), 'preview', draft] as const,
};
