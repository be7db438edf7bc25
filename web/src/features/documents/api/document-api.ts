/**
 * Calls and queries for documents: the paged list, one document, the read list, and for
 * uploaded files their original file, page layout and deletion.
 */
import { infiniteQueryOptions, queryOptions, type QueryKey } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import type { Sentiment } from '../../../lib/sentiment';
import { documentKeys, type DocumentKeys } from '../../../lib/queries/document-keys';

export type { DocumentKeys };

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
  /** Sent back with the deeplink when the document is opened; a wrong one answers 404. */
  access_key?: string;
  /** Only in the answer to a share: the key of a link any signed-in person can open. */
  public_access_key?: string | null;
  /** Near-duplicates from other sources folded into this card (a custom feed's story cluster). */
  story?: { size: number; sources: string[] } | null;
  /** The tone of its title and summary; older servers leave it out. */
  sentiment?: Sentiment | null;
}

export interface DocumentPage {
  results: DocumentCard[];
  page: number;
  has_more: boolean;
}

export type ReadStatus = 'read' | 'unread';

export const PAGE_SIZE = 20;

/**
 * A list of documents another feature names (the bookmarks, a tag's documents): its query key and
 * its call, which answers a `DocumentPage` and pages with `page` and `limit` as `/documents` does.
 */
export interface DocumentListing {
  queryKey: QueryKey;
  path: string;
  /** Turns an answer of another shape (a custom feed's) into a page; the answer is a page without it. */
  toPage?: (answer: unknown) => DocumentPage;
}

/** Returns `path` asking for one page: `page` and `limit` first, then the path's own parameters. */
const pagePath = (path: string, page: number) => {
  const [base, query = ''] = path.split('?', 2);
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  new URLSearchParams(query).forEach((value, key) => params.append(key, value));
  return `${base}?${params}`;
};

const documentsPath = (source: string | null, subCategory: string | null) => {
  const params = new URLSearchParams();
  if (source) params.set('source_id', source);
  if (subCategory) params.set('sub_category', subCategory);
  const query = params.toString();
  return query ? `/documents?${query}` : '/documents';
};

/** The address of a document call, with the keys that open it when there are any. */
const docPath = (source: string, deeplink: string, suffix = '', keys: DocumentKeys = {}) => {
  const params = new URLSearchParams({ deeplink });
  if (keys.access_key) params.set('access_key', keys.access_key);
  if (keys.public_access_key) params.set('public_access_key', keys.public_access_key);
  return `/doc/${encodeURIComponent(source)}${suffix}?${params}`;
};

const shareAnswer = z.object({
  results: z.array(z.object({ public_access_key: z.string().nullish() })),
});

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
  /**
   * Newest first, 20 a page; `source` null means every followed source (My Data), and
   * `subCategory` keeps one of My Data's sub-categories.
   */
  list: (source: string | null, subCategory: string | null = null) =>
    documentQueries.listing({ queryKey: documentKeys.list(source, subCategory), path: documentsPath(source, subCategory) }),
  /** Another feature's list of documents (`DocumentListing`), newest first, 20 a page. */
  listing: ({ queryKey, path, toPage }: DocumentListing) =>
    infiniteQueryOptions({
      queryKey,
      queryFn: async ({ pageParam, signal }) => {
        const answer = await api.get<unknown>(pagePath(path, pageParam), { signal });
        return toPage ? toPage(answer) : (answer as DocumentPage);
      },
      initialPageParam: 0,
      getNextPageParam: (last: DocumentPage) => (last.has_more ? last.page + 1 : undefined),
    }),
  /**
   * One document, opened with the keys the address carried. The page shows a failure itself
   * (a wrong or missing key is a 404: "cannot be found"), so it raises no toast.
   */
  detail: (deeplink: string, source: string, keys: DocumentKeys = {}) =>
    queryOptions({
      queryKey: documentKeys.opened(deeplink, source, keys),
      queryFn: ({ signal }) =>
        api.get<{ results: DocumentCard[] }>(docPath(source, deeplink, '', keys), { signal }),
      select: (data) => data.results[0] ?? null,
      meta: { toast: false },
    }),
  /**
   * The original file (kept as a Blob: each reader takes its own copy of the bytes). The keys
   * the document was opened with go along, so a shared link can reach it too.
   */
  file: (deeplink: string, source: string, keys: DocumentKeys = {}) =>
    queryOptions({
      queryKey: documentKeys.file(deeplink, source),
      queryFn: ({ signal }) => api.getFile(docPath(source, deeplink, '/file', keys), { signal }),
      staleTime: Infinity,
      gcTime: 60_000,
      meta: { toast: false },
    }),
  layout: (deeplink: string, source: string, keys: DocumentKeys = {}) =>
    queryOptions({
      queryKey: documentKeys.layout(deeplink, source),
      queryFn: async ({ signal }) =>
        layoutSchema.parse(await api.get<unknown>(docPath(source, deeplink, '/layout', keys), { signal })),
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

/**
 * Makes a shared link for a document (recorded by the server) and returns its key, or null
 * when the server gave none.
 */
export async function shareDocument(source: string, deeplink: string): Promise<string | null> {
  const path = `${docPath(source, deeplink)}&share=true`;
  const answer = shareAnswer.parse(await api.get<unknown>(path));
  return answer.results[0]?.public_access_key ?? null;
}

/** Deletes a document the user uploaded. */
export const deleteDocument = (source: string, deeplink: string) => api.delete<unknown>(docPath(source, deeplink));
