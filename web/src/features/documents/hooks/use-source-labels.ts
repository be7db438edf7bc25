import { useQuery } from '@tanstack/react-query';
import { sourceQueries, type RssSourceList } from '../../../lib/queries/source-queries';

const toLabels = (list: RssSourceList) => new Map(list.results.map((s) => [s.source_id, s.label]));

/** Returns the names of the followed sources by id, for cards to show instead of raw ids. */
export function useSourceLabels(): ReadonlyMap<string, string> {
  return useQuery({ ...sourceQueries.rss(), select: toLabels }).data ?? EMPTY;
}

const EMPTY: ReadonlyMap<string, string> = new Map();
