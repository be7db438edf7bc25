import { queryOptions, useQueries } from '@tanstack/react-query';
import { uploadKeys } from '../../../lib/queries/upload-keys';
import { fetchUploadStatus, type UploadStatusResult } from '../api/upload-api';
import { allSettled, nextPollDelay, type UploadBatch } from '../upload-state';

/**
 * The status query of one batch the server is processing. It starts from "nothing reported"
 * (the browser shows PROCESSING meanwhile), so the first check waits for the 5 s mark; after
 * each check the next waits twice as long, until every file is COMPLETED or FAILED or two
 * minutes have passed. A live UploadProcessed or UploadFailed event refetches it sooner.
 */
export const uploadStatusQuery = (ids: readonly string[], completedAt: number) =>
  queryOptions({
    queryKey: uploadKeys.status(ids),
    queryFn: ({ signal }) => fetchUploadStatus(ids, signal),
    initialData: { results: [] as UploadStatusResult[] },
    initialDataUpdatedAt: completedAt,
    staleTime: Infinity,
    refetchInterval: (query) =>
      allSettled(ids, query.state.data?.results) ? false : nextPollDelay(Date.now() - completedAt),
    refetchIntervalInBackground: true,
    // A missed check is made up by the next one; the rows keep the last status meanwhile.
    meta: { toast: false },
  });

/** Returns the last status the server reported for each file of the batches being processed. */
export function useUploadStatuses(batches: UploadBatch[]): ReadonlyMap<string, UploadStatusResult> {
  return useQueries({
    queries: batches
      .filter((batch) => batch.completedAt !== null && batch.processingIds.length > 0)
      .map((batch) => uploadStatusQuery(batch.processingIds, batch.completedAt ?? 0)),
    combine: (queries) => new Map(queries.flatMap((q) => q.data?.results ?? []).map((r) => [r.id, r])),
  });
}
