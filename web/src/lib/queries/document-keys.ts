/**
 * Query keys for documents, from general to specific. They live here rather than in the
 * documents feature because the live-event mapping (src/lib) invalidates them too.
 */
/** The keys that open a document: a card's own, or a shared link's. */
export interface DocumentKeys {
  access_key?: string;
  public_access_key?: string;
}

export const documentKeys = {
  all: () => ['documents'] as const,
  lists: () => [...documentKeys.all(), 'list'] as const,
  /**
   * One infinite list: every document (`source` null) or one source's, optionally only one of
   * My Data's sub-categories (`rss_news`, `drives`, ...).
   */
  list: (source: string | null, subCategory: string | null = null) =>
    [...documentKeys.lists(), { source, subCategory }] as const,
  details: () => [...documentKeys.all(), 'detail'] as const,
  /** Every cached copy of one document, whichever source it was opened from. */
  document: (deeplink: string) => [...documentKeys.details(), deeplink] as const,
  detail: (deeplink: string, source: string) => [...documentKeys.document(deeplink), source] as const,
  /**
   * The document as opened with the keys an address carried (a card's `access_key`, a shared
   * link's `public_access_key`): a wrong key answers 404, so each set of keys is its own entry.
   */
  opened: (deeplink: string, source: string, keys: DocumentKeys) =>
    [...documentKeys.detail(deeplink, source), 'opened', keys] as const,
  /** The original file of an uploaded document. */
  file: (deeplink: string, source: string) => [...documentKeys.detail(deeplink, source), 'file'] as const,
  /** The text blocks of a document's pages, with their boxes. */
  layout: (deeplink: string, source: string) => [...documentKeys.detail(deeplink, source), 'layout'] as const,
  /** The deeplinks the user has read. */
  readStatus: () => [...documentKeys.all(), 'read-status'] as const,
};
