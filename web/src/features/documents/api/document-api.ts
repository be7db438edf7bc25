/**
 * Calls and queries for documents: the paged list, one document, the read list, and for
 * uploaded files their original file, page layout and deletion.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
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
  /** Whether the user uploaded it (and so may delete it). */
  owned?: boolean;
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

const docPath = (source: string, deeplink: string, suffix = '') =>
  `/doc/${encodeURIComponent(source)}${suffix}?deeplink=${encodeURIComponent(deeplink)}`;

const layoutSchema = z.object({
  pages: z.array(
    z.object({
      number: z.number().int(),
      width: z.number().positive(),
      height: z.number().positive(),
      blocks: z.array(z.object({ text: z.string(), bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]) })),
    }),
  ),
});

/** Text blocks per page, boxes in PDF points from each page's top left. */
export type DocumentLayout = z.infer<typeof layoutSchema>;

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
        api.get<{ results: DocumentCard[] }>(docPath(source, deeplink), { signal }),
      select: (data) => data.results[0] ?? null,
    }),
  /** The original file (kept as a Blob: each reader takes its own copy of the bytes). */
  file: (deeplink: string, source: string) =>
    queryOptions({
      queryKey: documentKeys.file(deeplink, source),
      queryFn: ({ signal }) => api.getFile(docPath(source, deeplink, '/file'), { signal }),
      staleTime: Infinity,
      gcTime: 60_000,
      meta: { toast: false },
    }),
  layout: (deeplink: string, source: string) =>
    queryOptions({
      queryKey: documentKeys.layout(deeplink, source),
      queryFn: async ({ signal }) => layoutSchema.parse(await api.get<unknown>(docPath(source, deeplink, '/layout'), { signal })),
      staleTime: Infinity,
      meta: { toast: false },
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

/** Deletes a document the user uploaded. */
export const deleteDocument = (source: string, deeplink: string) => api.delete<unknown>(docPath(source, deeplink));
