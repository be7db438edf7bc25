/**
 * A report's files go up through the upload calls with `source: "report"` and the report's type
 * (docs/reports.md, "Files"): init hands out one signed link per file, each file is sent to its
 * link with progress, and complete puts the sent files in the draft report (a new one unless
 * `feed_id` names it) and answers that report's id as `feed_id`.
 */
import { z } from 'zod';
import { api } from '../../../lib/api';

export const REPORT_SOURCE = 'report';

const linkSchema = z.object({
  id: z.string(),
  upload_link: z.string().min(1),
  headers: z.record(z.string(), z.string()).nullish().transform((h) => h ?? {}),
  metadata_fields: z.object({ bucket: z.string(), key: z.string() }),
});

export type ReportUploadLink = z.infer<typeof linkSchema>;

const initAnswer = z.object({ upload_configs: z.array(linkSchema) });
const completeAnswer = z.object({
  files: z.array(z.object({ id: z.string(), status: z.string(), error: z.string().nullish() })).default([]),
  feed_id: z.string().nullish(),
});

export type ReportUploadResult = z.infer<typeof completeAnswer>;

export interface DeclaredFile {
  id: string;
  name: string;
  mime_type: string;
  size: number;
}

export interface SentFile {
  bucket: string;
  key: string;
  metadata: { name: string; mime_type: string; id: string };
}

export const initReportUpload = async (reportType: string, files: DeclaredFile[]): Promise<ReportUploadLink[]> =>
  initAnswer.parse(await api.post<unknown>('/upload/init', { body: { source: REPORT_SOURCE, report_type: reportType, files } }))
    .upload_configs;

export interface CompleteReportUpload {
  reportType: string;
  reportName: string;
  /** The draft report to add to; absent makes a new one. */
  reportId: string | null;
  /** Custom research: what to research (the draft's outline comes from it). */
  brief?: string;
  files: SentFile[];
}

export const completeReportUpload = async (c: CompleteReportUpload): Promise<ReportUploadResult> =>
  completeAnswer.parse(
    await api.post<unknown>('/upload/complete', {
      body: {
        source: REPORT_SOURCE,
        report_type: c.reportType,
        report_name: c.reportName,
        ...(c.reportId ? { feed_id: c.reportId } : {}),
        ...(c.brief ? { brief: c.brief } : {}),
        files: c.files,
      },
    }),
  );

/** Takes files out of a draft report (their uploads stay in My Data). */
export const removeReportFiles = (reportId: string, reportType: string, fileIds: string[]) =>
  api.put<unknown>('/upload/complete', {
    body: { action: 'remove', source: REPORT_SOURCE, feed_id: reportId, report_type: reportType, files: fileIds.map((id) => ({ id })) },
  });

/** Sends one file to its signed link with XMLHttpRequest, which (unlike fetch) reports upload progress. */
export function sendFile(file: Blob, link: ReportUploadLink, contentType: string, onProgress: (percent: number) => void): Promise<void> {
  const request = new XMLHttpRequest();
  return new Promise<void>((resolve, reject) => {
    request.open('PUT', link.upload_link);
    for (const [name, value] of Object.entries(link.headers)) {
      if (name.toLowerCase() !== 'content-type') request.setRequestHeader(name, value);
    }
    request.setRequestHeader('Content-Type', contentType);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.min(100, (event.loaded / event.total) * 100));
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(100);
        resolve();
      } else reject(new Error(`upload failed with status ${request.status}`));
    };
    request.onerror = () => reject(new Error('the upload could not reach the server'));
    request.send(file);
  });
}
