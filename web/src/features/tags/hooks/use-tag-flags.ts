import { useQuery } from '@tanstack/react-query';
import { featureQueries } from '../../../lib/queries/feature-queries';

/** Which of tagging and bookmarking the user's flags allow (`tags`, `bookmarks`). */
export interface TagFlags {
  tags: boolean;
  bookmarks: boolean;
}

/**
 * Returns the flags that gate the tag picker and the bookmark toggle. Both are on unless the
 * flags say otherwise: that is every user's default, and the server refuses writes when off.
 */
export function useTagFlags(): TagFlags {
  const features = useQuery(featureQueries.config()).data?.features;
  return { tags: features?.tags !== false, bookmarks: features?.bookmarks !== false };
}
