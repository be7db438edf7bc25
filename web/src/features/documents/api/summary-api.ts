/**
 * Calls and queries for the user's summaries of documents (flag `doc_summarization`): the status
 * of every summary they asked for, asking for one, and the written PDF. One list answers for every
 * card on a page, rather than a call per card. The keys sit beside the documents', not under their
 * lists or details: those refresh often, and the summaries need not be asked again with them.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { API_BASE, type FileDownload } from '../../../lib/api-client';
import { documentKeys } from '../../../lib/queries/document-keys';

const summarySchema = z.object({
  status: z.enum(['NONE', 'PENDING', 'PROCESSING', 'SUCCESS', 'FAILED']),
  /** Where the PDF is read (`/api/documents/{deeplink}/summary/pdf`), once SUCCESS. */
  summary_pdf: z.string().nullish(),
  /** The spec's "being generated" message while it is; the reason when it failed. */
  message: z.string().nullish(),
});

export type Summary = z.infer<typeof summarySchema>;

const summaryEntrySchema = summarySchema.extend({ deeplink: z.string() });

/** One document's summary in the list of the user's summaries. */
export type SummaryEntry = z.infer<typeof summaryEntrySchema>;

/**
 * The user's summaries (the most recent 500); documents the user may no longer read are left out.
 * A document with no entry has none.
 */
const summariesSchema = z.object({ results: z.array(summaryEntrySchema) });

/** The status of a document with no entry in the list. */
export const NO_SUMMARY: Summary = { status: 'NONE' };

/** Returns whether the summary is still being written. */
export const isSummarizing = (summary: Summary | undefined): boolean =>
  summary?.status === 'PENDING' || summary?.status === 'PROCESSING';

export const summaryKeys = {
  all: () => [...documentKeys.all(), 'summary'] as const,
  list: () => [...summaryKeys.all(), 'list'] as const,
};

const summaryPath = (deeplink: string) => `/documents/${encodeURIComponent(deeplink)}/summary`;

export const summaryQueries = {
  /**
   * Every summary the user asked for. A failure shows no summary actions rather than a toast
   * (each card would otherwise show the same one); a settled list is kept a while.
   */
  list: () =>
    queryOptions({
      queryKey: summaryKeys.list(),
      queryFn: async ({ signal }) => summariesSchema.parse(await api.get<unknown>('/documents/summaries', { signal })).results,
      staleTime: 60_000,
      meta: { toast: false },
    }),
};

/** Returns a copy of the list with `deeplink`'s entry set to `summary` (added first when it had none). */
export const withSummary = (list: readonly SummaryEntry[], deeplink: string, summary: Summary): SummaryEntry[] => {
  const entry = { ...summary, deeplink };
  return list.some((e) => e.deeplink === deeplink) ? list.map((e) => (e.deeplink === deeplink ? entry : e)) : [entry, ...list];
};

/** Asks for a summary; answers its status (PENDING once asked; unchanged when one is written or being written). */
export const requestSummary = async (deeplink: string): Promise<Summary> =>
  summarySchema.parse(await api.post<unknown>(summaryPath(deeplink), { body: {} }));

/**
 * Fetches the written summary's PDF from the address its status gave. Only an address of this
 * server's API is followed (the call carries the user's token).
 */
export async function fetchSummaryPdf(summary: Summary): Promise<FileDownload> {
  const at = summary.summary_pdf;
  if (!at?.startsWith(`${API_BASE}/`)) throw new Error('the summary has no PDF on this server');
  return api.getFile(at.slice(API_BASE.length));
}
