import { useId } from 'react';
import { isSummarizing } from '../api/summary-api';
import type { DocumentCard } from '../api/document-api';
import { useRequestSummary, useSummary, useViewSummary } from '../hooks/use-summary';
import { openBlankTab } from '../open-pdf';

/**
 * The user's summary of a document: Summarize (again, after a failure, whose reason is shown),
 * then Summarizing while it is written, then View Summary, which opens its PDF in a new tab. It is
 * one button throughout, so keyboard focus stays on it; while the summary is written it is
 * `aria-disabled` rather than `disabled`, which would drop the focus. Its status is the document's
 * entry in the user's list of summaries, which every card shares; nothing shows while that list is
 * unknown or could not be read.
 */
export function SummaryButton({ doc }: { doc: Pick<DocumentCard, 'deeplink' | 'title'> }) {
  const status = useSummary(doc.deeplink);
  const request = useRequestSummary();
  const view = useViewSummary();
  const reasonId = useId();
  const summary = status.data;
  if (!summary) return null;

  const ready = summary.status === 'SUCCESS';
  const working = !ready && (isSummarizing(summary) || request.isPending);
  const failed = !working && summary.status === 'FAILED';
  const busy = working || view.isPending;
  const act = () => {
    if (busy) return;
    if (ready) view.mutate({ summary, title: doc.title, tab: openBlankTab() });
    else request.mutate(doc.deeplink);
  };
  let label = 'Summarize';
  if (ready) label = view.isPending ? 'Opening…' : 'View Summary';
  else if (working) label = 'Summarizing';

  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        aria-label={`${label} ${ready ? 'of ' : ''}${doc.title}${ready ? ' (opens in a new tab)' : ''}`}
        aria-disabled={busy || undefined}
        aria-describedby={failed ? reasonId : undefined}
        onClick={act}
      >
        {label}
      </button>
      {failed && (
        <span id={reasonId} className="small doc-action-note">
          {summary.message ? `The summary could not be written: ${summary.message}` : 'The summary could not be written.'}
        </span>
      )}
    </>
  );
}
