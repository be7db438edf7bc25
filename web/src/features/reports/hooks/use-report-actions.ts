/** The writes of a report: generate, cancel and rate, each refreshing the list and the report. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reportKeys } from '../../../lib/queries/report-keys';
import { cancelReport, generateReport, initReport, rateReport, type InitReport } from '../api/report-api';
import { FEEDBACK_FAILED, FEEDBACK_SUBMITTED } from '../messages';

function useRefresh() {
  const queryClient = useQueryClient();
  return (reportId?: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: reportKeys.list() }),
      ...(reportId ? [queryClient.invalidateQueries({ queryKey: reportKeys.report(reportId) })] : []),
    ]);
}

export function useGenerateReport() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: generateReport, onSettled: (_d, _e, reportId) => refresh(reportId) });
}

export function useCancelReport() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: cancelReport, onSettled: (_d, _e, reportId) => refresh(reportId) });
}

/** Makes a draft over a feed (or files already the user's) and queues it; returns the report. */
export function useCreateReport() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: InitReport) => generateReport((await initReport(body)).id),
    onSettled: (report) => refresh(report?.id),
  });
}

export function useRateReport(reportId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ rating, comments }: { rating: number | null; comments: string }) => rateReport(reportId, rating, comments),
    meta: { successToast: FEEDBACK_SUBMITTED, errorToast: FEEDBACK_FAILED },
    onSettled: () => refresh(reportId),
  });
}
