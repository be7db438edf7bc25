/**
 * Calls and queries for the tables found on a PDF document's pages (flag `doc_table_extraction`):
 * the list, with each table's rows, and one file of them all as CSV or Excel.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import type { FileDownload } from '../../../lib/api-client';
import { documentKeys } from '../../../lib/queries/document-keys';
import type { DocumentCard } from './document-api';

const tableListSchema = z.object({
  tables: z.array(
    z.object({
      /** 1, 2, … in the order they were found. */
      number: z.number().int(),
      page: z.number().int(),
      rows: z.array(z.array(z.string())),
    }),
  ),
});

export type DocumentTable = z.infer<typeof tableListSchema>['tables'][number];

export type TableFormat = 'csv' | 'xlsx';

type Target = Pick<DocumentCard, 'deeplink' | 'source'>;

const tablesPath = ({ source, deeplink }: Target, suffix = '', extra: Record<string, string> = {}) =>
  `/doc/${encodeURIComponent(source)}/tables${suffix}?${new URLSearchParams({ deeplink, ...extra })}`;

/** Returns whether tables may be taken from the document: the server reads them from PDFs only. */
export const hasPdfPages = (doc: Pick<DocumentCard, 'metadata'>): boolean => doc.metadata?.mime_type === 'application/pdf';

export const tableQueries = {
  /** A document's tables; the dialog shows a failure itself (422 `not_a_pdf` among them). */
  list: (doc: Target) =>
    queryOptions({
      queryKey: [...documentKeys.all(), 'tables', doc.source, doc.deeplink] as const,
      queryFn: async ({ signal }) => tableListSchema.parse(await api.get<unknown>(tablesPath(doc), { signal })).tables,
      // A document's pages do not change.
      staleTime: Infinity,
      meta: { toast: false },
    }),
};

/** Every table of the document in one file (404 `no_tables_found` when it has none). */
export const downloadTables = (doc: Target, format: TableFormat): Promise<FileDownload> =>
  api.getFile(tablesPath(doc, '/download', { format }));
