import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { libraryQueries } from '../../../lib/queries/library-queries';
import { sourceQueries } from '../../../lib/queries/source-queries';
import { CURRENT_FEED_SCOPE, type ScopeNames } from '../search-scope';

/**
 * Returns the names of the scope a search looks in: a sub-category's or source's label from the
 * category index, a followed feed's from the feed list. Each list is only asked for when the
 * search needs it.
 */
export function useScopeNames(scope: string | null, feedId: string | null): ScopeNames {
  const categories = useQuery({ ...libraryQueries.categories(), enabled: Boolean(scope && scope !== CURRENT_FEED_SCOPE) });
  const feeds = useQuery({ ...sourceQueries.rss(), enabled: Boolean(feedId) });
  return useMemo(
    () => ({
      scope: (key) => categories.data?.results.flatMap((c) => c.sources).find((s) => s.key === key)?.label,
      feed: (id) => feeds.data?.results.find((s) => s.source_id === id)?.label,
    }),
    [categories.data, feeds.data],
  );
}
