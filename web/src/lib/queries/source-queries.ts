/**
 * The followed RSS sources. Shared: the sources feature manages them and the documents feature
 * shows their labels on cards.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api';
import { sourceKeys } from './source-keys';

export type Priority = 'HIGH' | 'MEDIUM' | 'LOW';

export interface RssSource {
  source_id: string;
  priority: Priority;
  key: string;
  label: string;
  link_to_crawl: string;
  thumbnail_location: string | null;
  /** Why the last fetches failed, while they keep failing (e.g. an address the server refuses). */
  last_error?: string | null;
}

export interface RssSourceList {
  results: RssSource[];
}

export const sourceQueries = {
  rss: () =>
    queryOptions({
      queryKey: sourceKeys.rss(),
      queryFn: ({ signal }) => api.get<RssSourceList>('/source/rss', { signal }),
      staleTime: 15_000,
    }),
};
