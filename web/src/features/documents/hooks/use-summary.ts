import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { useCallback } from 'react';
import { isApiError, PLAN_REQUIRED } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { GENERIC_FAILURE, type ToastMeta } from '../../../lib/query-client';
import {
  fetchSummaryPdf,
  isSummarizing,
  NO_SUMMARY,
  requestSummary,
  summaryQueries,
  withSummary,
  type Summary,
  type SummaryEntry,
} from '../api/summary-api';
import { showPdf } from '../open-pdf';

/** What the spec says once a summary is asked for. */
export const SUMMARY_REQUESTED = 'Your summary is currently being generated, and we will notify you once it is complete.';

/** The first wait before looking at a summary being written again, and the longest. */
export const SUMMARY_POLL_MS = 3_000;
export const SUMMARY_POLL_MAX_MS = 30_000;

/** Returns the wait before the next look, after `looks` looks at a summary being written: doubling, up to the longest. */
export const summaryPollDelay = (looks: number): number => Math.min(SUMMARY_POLL_MAX_MS, SUMMARY_POLL_MS * 2 ** Math.max(0, looks));

/** The list's query, as far as its polling needs it. */
type SummaryList = Pick<Query<SummaryEntry[]>, 'state'>;

/**
 * The list's answer count when it was first seen with a summary being written: the looks since
 * count from it. It is kept with the query rather than with a card, so that every card on a page
 * (and a card that comes later, as the list scrolls) waits the same, and one look answers for all.
 */
const pollingSince = new WeakMap<SummaryList, number>();

/**
 * Returns the wait before the list is looked at again: while a summary in it is being written,
 * every few seconds at first and less often as that takes longer; not at all once none is.
 */
function summaryListPollDelay(query: SummaryList): number | false {
  if (!query.state.data?.some(isSummarizing)) {
    pollingSince.delete(query);
    return false;
  }
  const since = pollingSince.get(query) ?? query.state.dataUpdateCount;
  pollingSince.set(query, since);
  return summaryPollDelay(query.state.dataUpdateCount - since);
}

/**
 * Returns the user's summary of a document (NONE when the list has no entry for it), read from the
 * one list of their summaries that every card shares, which is looked at again while any summary in
 * it is being written.
 */
export function useSummary(deeplink: string) {
  const select = useCallback(
    (list: SummaryEntry[]): Summary => list.find((entry) => entry.deeplink === deeplink) ?? NO_SUMMARY,
    [deeplink],
  );
  return useQuery({ ...summaryQueries.list(), select, refetchInterval: summaryListPollDelay });
}

/**
 * A refusal of the feature (403: the flag is off after all) would otherwise pass without a word,
 * as a lost session's does; the spec wants the generic error. A lost session and a plan's refusal
 * keep their own prompts.
 */
const asCreateFailure = (error: unknown) => {
  if (!isApiError(error) || error.status !== 403 || error.code === PLAN_REQUIRED) return error;
  return new Error(error.message);
};

/**
 * Asks for a summary: the answered status goes into the list at once, so the card shows it being
 * written, and the spec's message is shown.
 */
export function useRequestSummary() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: GENERIC_FAILURE } satisfies ToastMeta,
    mutationFn: async (deeplink: string) => {
      try {
        return await requestSummary(deeplink);
      } catch (error) {
        throw asCreateFailure(error);
      }
    },
    onSuccess: async (summary, deeplink) => {
      const key = summaryQueries.list().queryKey;
      // A look on its way may have been answered before the request, and would undo the status.
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      // The new summary is looked at again soon, however long the others have been written.
      const list = queryClient.getQueryCache().find<SummaryEntry[]>({ queryKey: key, exact: true });
      if (list) pollingSince.delete(list);
      queryClient.setQueryData(key, (entries) => entries && withSummary(entries, deeplink, summary));
      if (isSummarizing(summary)) notify({ type: 'success', message: SUMMARY_REQUESTED });
    },
  });
}

/** A written summary to show, with the document's title (to name the file when it is downloaded instead). */
interface ShownSummary {
  summary: Summary;
  title: string;
  /** The tab opened on the click, or null when the browser blocked it. */
  tab: Window | null;
}

/** Shows a written summary's PDF in the tab opened for it; a failure closes the tab and says so. */
export function useViewSummary() {
  return useMutation({
    meta: { errorToast: GENERIC_FAILURE } satisfies ToastMeta,
    mutationFn: async ({ summary, title, tab }: ShownSummary) => {
      try {
        const file = await fetchSummaryPdf(summary);
        showPdf(file.blob, tab, file.fileName ?? `${title} summary.pdf`);
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
  });
}
