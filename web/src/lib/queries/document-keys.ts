/**
 * Query keys for documents, from general to specific. They live here rather than in the
 * documents feature because the live-event mapping (src/lib) invalidates them too.
 */
export const documentKeys = {
  all: () => ['documents'] as const,
  lists: () => [...documentKeys.all(), 'list'] as const,
  /** One infinite list: every document (`source` null) or one source's. */
  list: (source: string | null) => [...documentKeys.lists(), { source }] as const,
  details: () => [...documentKeys.all(), 'detail'] as const,
  /** Every cached copy of one document, whichever source it was opened from. */
  document: (deeplink: string) => [...documentKeys.details(), deeplink] as const,
  detail: (deeplink: string, source: string) => [...documentKeys.document(deeplink), source] as const,
  /** The original file of an uploaded document. */
  file: (deeplink: string, source: string) => [...documentKeys.detail(deeplink, source), 'file'] as const,
  /** The text blocks of a document's pages, with their boxes. */
  layout: (deeplink: string, source: string) => [...documentKeys.detail(deeplink, source), 'layout'] as const,
  /** The deeplinks the user has read. */
  readStatus: () => [...documentKeys.all(), 'read-status'] as const,
};
