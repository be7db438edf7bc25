/**
 * Query keys for what the user's data is made of: My Data's sub-categories (the category index)
 * and the personal store's sources. Shared with the live-event mapping (src/lib), which refreshes
 * them when documents arrive or go and when sources are followed.
 */
export const libraryKeys = {
  all: () => ['library'] as const,
  /** The category index behind My Data's tabs. */
  categories: () => [...libraryKeys.all(), 'categories'] as const,
  /** What the personal store (needlbox) holds. */
  needlbox: () => [...libraryKeys.all(), 'needlbox'] as const,
  /** The sources only the user reads (the drive, AskNeedl attachments), with their counts. */
  privateSources: () => [...libraryKeys.all(), 'private'] as const,
};
