/**
 * Calls and queries for research reports (/ml/report): the types on offer, the user's reports,
 * one report, and making, generating, rating and cancelling one. Answers are checked with zod,
 * so a server that drifts from docs/reports.md fails loudly here rather than in a component.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { reportKeys } from '../../../lib/queries/report-keys';

/** The spec's list refetch: every 60 s, in the background too. */
export const REPORT_LIST_REFETCH_MS = 60_000;

const typeConfigSchema = z.object({
  report_type: z.string(),
  shown_as: z.string(),
  label: z.string(),
  file_count_limit: z.number().int().positive(),
  /** Bytes. */
  file_size_limit: z.number().positive(),
  file_types: z.array(z.string()).default([]),
  allow_folder_upload: z.boolean().default(false),
  sections: z.array(z.string()).default([]),
});

export type ReportTypeConfig = z.infer<typeof typeConfigSchema>;

/** DRAFT, QUEUED, RUNNING, COMPLETED, FAILED or CANCELLED. */
export type ReportStatus = string;

const itemSchema = z.object({
  id: z.string(),
  title: z.string(),
  name: z.string(),
  status: z.string(),
  /** Seconds, once finished. */
  time_taken: z.number().nullish(),
  report_type: z.string(),
  rating: z.number().int().nullish(),
  comments: z.string().nullish(),
  sections: z.number().int().default(0),
  sections_done: z.number().int().default(0),
  feed_id: z.string().nullish(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type ReportItem = z.infer<typeof itemSchema>;

const outputSchema = z.object({
  title: z.string(),
  content: z.string(),
  /** The string 'true' on failure. */
  error: z.string().nullish(),
  /** Why it failed: a sentence a person can act on. */
  error_message: z.string().nullish(),
  raw_data: z.unknown(),
  /** Seconds. */
  time_taken: z.number().nullish(),
});

export type ReportOutput = z.infer<typeof outputSchema>;

const documentSchema = z.object({
  /** The upload's file id or the document's id (once the server sends it). */
  id: z.string().nullish(),
  /** A link the browser can open, or (older servers) `bucket/key`. */
  object_location: z.string().nullish(),
  /** PROCESSING, COMPLETED or FAILED (once the server sends it). */
  status: z.string().nullish(),
  size: z.number().nullish(),
  metadata: z.object({ fileName: z.string(), guid: z.string() }),
});

export type ReportDocument = z.infer<typeof documentSchema>;

const sectionSchema = z.object({
  index: z.number().int(),
  heading: z.string(),
  /** PLANNED or COMPLETED. */
  status: z.string(),
});

const detailSchema = z.object({
  id: z.string(),
  status: z.string(),
  report_type: z.string(),
  name: z.string(),
  result: outputSchema.nullish(),
  payload: z.object({ documents: z.array(documentSchema) }),
  sections: z.array(sectionSchema).default([]),
  rating: z.number().int().nullish(),
  comments: z.string().nullish(),
});

export type ReportDetail = z.infer<typeof detailSchema>;

const feedSchema = z.object({ board_id: z.string(), board_name: z.string() });
export type ReportFeed = z.infer<typeof feedSchema>;

const configAnswer = z.object({ results: z.array(typeConfigSchema) });
const listAnswer = z.object({ reports: z.array(itemSchema) });
const itemAnswer = z.object({ results: itemSchema });
const detailAnswer = z.object({ results: detailSchema });
const feedsAnswer = z.object({ results: z.array(feedSchema) });

const at = (reportId: string, rest = '') => `/ml/report/${encodeURIComponent(reportId)}${rest}`;

export const reportQueries = {
  /** The report types: they never change while the page is open. */
  config: () =>
    queryOptions({
      queryKey: reportKeys.config(),
      queryFn: async ({ signal }) => configAnswer.parse(await api.get<unknown>('/ml/report/config', { signal })).results,
      staleTime: Infinity,
      gcTime: Infinity,
    }),
  /** The user's reports, newest first; the socket refreshes them and they refetch every 60 s. */
  list: () =>
    queryOptions({
      queryKey: reportKeys.list(),
      queryFn: async ({ signal }) => listAnswer.parse(await api.get<unknown>('/ml/report', { signal })).reports,
      refetchInterval: REPORT_LIST_REFETCH_MS,
      refetchIntervalInBackground: true,
    }),
  /** One report; a 404 (not the user's, or gone) is shown where the report would be. */
  detail: (reportId: string) =>
    queryOptions({
      queryKey: reportKeys.report(reportId),
      queryFn: async ({ signal }) => detailAnswer.parse(await api.get<unknown>(at(reportId), { signal })).results,
      meta: { toast: false },
    }),
  /** The user's custom feeds a report may read. */
  feeds: () =>
    queryOptions({
      queryKey: reportKeys.feeds(),
      queryFn: async ({ signal }) => feedsAnswer.parse(await api.get<unknown>('/boards/v2', { signal })).results,
      staleTime: 15_000,
    }),
};

export interface InitReport {
  report_type: string;
  name: string;
  files?: string[];
  feed_id?: string;
  brief?: string;
}

/** Makes a draft report over files and/or a feed. */
export const initReport = async (body: InitReport): Promise<ReportItem> =>
  itemAnswer.parse(await api.post<unknown>('/ml/report/init', { body })).results;

/** Queues the report's generation; 409 `report_file_processing` while a file still processes. */
export const generateReport = async (reportId: string): Promise<ReportItem> =>
  itemAnswer.parse(await api.post<unknown>('/ml/report/generate', { body: { report_id: reportId } })).results;

export const rateReport = async (reportId: string, rating: number | null, comments: string): Promise<ReportItem> =>
  itemAnswer.parse(await api.put<unknown>(at(reportId), { body: { rating, comments } })).results;

export const cancelReport = async (reportId: string): Promise<ReportItem> =>
  itemAnswer.parse(await api.post<unknown>(at(reportId, '/cancel'))).results;

/** The address of a finished report's PDF or DOCX (an attachment, opened as a plain link). */
export const exportHref = (reportId: string, format: 'pdf' | 'docx') =>
  `/api${at(reportId, '/export')}?format=${format}`;
