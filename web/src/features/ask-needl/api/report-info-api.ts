/**
 * What report mode needs of a report: its name, feed, sources with their status and section
 * headings, read from GET /ml/report/{id} (the reports feature owns the report screens; this
 * is the assistant's own narrow view of the same answer).
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { reportKeys } from '../../../lib/queries/report-keys';
import type { ReportInfo } from '../types';

const answer = z.object({
  results: z.object({
    id: z.string(),
    name: z.string(),
    feed_id: z.string().nullish(),
    payload: z.object({
      documents: z.array(
        z.object({ id: z.string().nullish(), status: z.string().nullish(), metadata: z.object({ fileName: z.string(), guid: z.string() }) }),
      ),
    }),
    sections: z.array(z.object({ heading: z.string() })).default([]),
  }),
});

/** The report as report mode shows it; a file without a status is taken as ready (older servers). */
export const reportInfoQuery = (reportId: string) =>
  queryOptions({
    queryKey: [...reportKeys.report(reportId), 'ask-info'] as const,
    queryFn: async ({ signal }): Promise<ReportInfo> => {
      const r = answer.parse(await api.get<unknown>(`/ml/report/${encodeURIComponent(reportId)}`, { signal })).results;
      return {
        id: r.id,
        name: r.name,
        feed_id: r.feed_id ?? null,
        sources: r.payload.documents.map((d) => ({ id: d.id ?? d.metadata.guid, name: d.metadata.fileName, status: d.status ?? 'COMPLETED' })),
        sections: r.sections.map((s) => s.heading),
      };
    },
    meta: { toast: false },
  });
