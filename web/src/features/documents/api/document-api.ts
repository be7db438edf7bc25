/** Calls and queries for documents: the paged list, one document, and the read list. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { documentKeys } from '../../../lib/queries/document-keys';

export interface DocumentCard {
  deeplink: string;
  source: string;
  link: string | null;
  title: string;
  author: string | null;
  published_at: string | null;
  summary: string | null;
  metadata: Record<string, string>;
  ingested_at: string;
  read: boolean;
}

export interface DocumentPage {
  results: DocumentCard[];
  page: number;
  has_more: boolean;
}

export type ReadStatus = 'read' | 'unread';

export const PAGE_SIZE = 20;

const documentsPath = (source: string | null, page: number) => {
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  if (source) params.set('source_id', source);
  return `/documents?${params}`;
};

export const documentQueries = {
  /** Newest first, 20 a page; `source` null means every followed source (My Data). */
  list: (source: string | null) =>
    infiniteQueryOptions({
      queryKey: documentKeys.list(source),
      queryFn: ({ pageParam, signal }) => api.get<DocumentPage>(documentsPath(source, pageParam), { signal }),
      initialPageParam: 0,
      getNextPageParam: (last: DocumentPage) => (last.has_more ? last.page + 1 : undefined),
    }),
  detail: (deeplink: string, source: string) =>
    queryOptions({
      queryKey: documentKeys.detail(deeplink, source),
      queryFn: ({ signal }) =>
        api.get<{ results: DocumentCard[] }>(
          `/doc/${encodeURIComponent(source)}?deeplink=${encodeURIComponent(deeplink)}`,
          { signal },
        ),
      select: (data) => data.results[0] ?? null,
    }),
  readStatus: () =>
    queryOptions({
      queryKey: documentKeys.readStatus(),
      queryFn: ({ signal }) => api.get<{ results: string[] }>('/doc/read_status', { signal }),
    }),
};

export const setReadStatus = (deeplink: string, status: ReadStatus) =>
  api.put<{ deeplink: string; status: ReadStatus }>(`/doc/read_status/${encodeURIComponent(deeplink)}`, {
    body: { status },
  });
