/**
 * Calls and queries for uploads: the source's limits, asking for upload links, reporting the
 * transfers done, and each file's status. Every answer is parsed, so a server that drifts from
 * docs/api.md fails loudly here rather than somewhere in a component.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { uploadKeys } from '../../../lib/queries/upload-keys';

export const uploadConfigSchema = z.object({
  /** Allowed extensions, without the dot; empty allows any. */
  file_types: z.array(z.string()).default([]),
  /** Allowed mime types; empty allows any. */
  mime_types: z.array(z.string()).default([]),
  file_count_limit: z.number().int().positive(),
  /** In bytes. */
  file_size_limit: z.number().positive(),
  allow_folder_upload: z.boolean().default(false),
  file_name_suffixes: z.array(z.string()).default([]),
});

export type UploadConfig = z.infer<typeof uploadConfigSchema>;

const configResponse = z.object({ data: z.object({ config: uploadConfigSchema }) });

export const uploadLinkSchema = z.object({
  id: z.string(),
  upload_link: z.string().min(1),
  headers: z.record(z.string(), z.string()).nullish().transform((h) => h ?? {}),
  metadata_fields: z.object({ bucket: z.string(), key: z.string() }),
});

export type UploadLink = z.infer<typeof uploadLinkSchema>;

const initResponse = z.object({ upload_configs: z.array(uploadLinkSchema) });

const completeResponse = z.object({
  files: z.array(z.object({ id: z.string(), status: z.string(), error: z.string().nullish() })),
  feed_id: z.string().nullish(),
});

export type CompleteResult = z.infer<typeof completeResponse>;

export const uploadStatusSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  mime_type: z.string().nullish(),
  size: z.number().nullish(),
  /** UPLOADING, PROCESSING, COMPLETED or FAILED (other spec statuses are tolerated). */
  status: z.string(),
  error: z.string().nullish(),
  deeplink: z.string().nullish(),
});

export type UploadStatusResult = z.infer<typeof uploadStatusSchema>;

const statusResponse = z.object({ results: z.array(uploadStatusSchema) });

export type UploadStatusList = z.infer<typeof statusResponse>;

/** What the browser declares about a file when asking for its upload link. */
export interface FileDeclaration {
  id: string;
  name: string;
  mime_type: string;
  size: number;
}

/** A transferred file, as the complete call reports it. */
export interface TransferredFile {
  bucket: string;
  key: string;
  metadata: { name: string; mime_type: string; id: string };
}

export const uploadQueries = {
  /** The limits never change while the page is open. */
  config: (source: string) =>
    queryOptions({
      queryKey: uploadKeys.config(source),
      queryFn: async ({ signal }) =>
        configResponse.parse(await api.get<unknown>(`/upload/config?source=${encodeURIComponent(source)}`, { signal })).data
          .config,
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};

/** Returns one upload link per file, in the files' order. */
export const initUpload = async (source: string, files: FileDeclaration[]): Promise<UploadLink[]> =>
  initResponse.parse(await api.post<unknown>('/upload/init', { body: { source, files } })).upload_configs;

/** Reports the transfers done; each file is then PROCESSING. */
export const completeUpload = async (source: string, files: TransferredFile[]): Promise<CompleteResult> =>
  completeResponse.parse(await api.post<unknown>('/upload/complete', { body: { source, files } }));

export const fetchUploadStatus = async (ids: readonly string[], signal?: AbortSignal): Promise<UploadStatusList> =>
  statusResponse.parse(await api.get<unknown>(`/upload/status?ids=${ids.map(encodeURIComponent).join(',')}`, { signal }));
