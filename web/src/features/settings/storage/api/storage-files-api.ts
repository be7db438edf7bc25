/**
 * An app's stored files, for the storage page of one file type. The server has no filter by
 * type: the app's documents (`/documents?source_id=`) are read 100 at a time and each page keeps
 * the files of the type it shows (see file-types.ts).
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../../lib/api';
import { documentKeys } from '../../../../lib/queries/document-keys';

/** What the storage page reads of a document made from an uploaded file. */
export interface StoredFile {
  deeplink: string;
  source: string;
  title: string;
  ingested_at: string;
  access_key?: string;
  /** The file's `original_file_name`, `mime_type` and `size` (bytes) among others. */
  metadata: Record<string, string>;
}

export interface StoredFilePage {
  results: StoredFile[];
  page: number;
  has_more: boolean;
}

/** The most a page of `/documents` holds. */
export const FILES_PAGE_SIZE = 100;

export const storageFileQueries = {
  /**
   * The app's files, newest first. Kept among the document lists, in their shape, so uploads,
   * deletions and the live socket refresh it as they do the drive's own list.
   */
  files: (app: string) =>
    infiniteQueryOptions({
      queryKey: [...documentKeys.lists(), { source: app, subCategory: null, pageSize: FILES_PAGE_SIZE }] as const,
      queryFn: ({ pageParam, signal }) => {
        const params = new URLSearchParams({ page: String(pageParam), limit: String(FILES_PAGE_SIZE), source_id: app });
        return api.get<StoredFilePage>(`/documents?${params}`, { signal });
      },
      initialPageParam: 0,
      getNextPageParam: (last: StoredFilePage) => (last.has_more ? last.page + 1 : undefined),
      meta: { toast: false },
    }),
};
