import { Link } from 'react-router';
import type { ReportDetail } from '../api/report-api';
import { useCancelReport, useGenerateReport } from '../hooks/use-report-actions';
import { hasFailed, isInProgress, minutesTaken } from '../report-format';
import type { ReportCitation } from '../report-links';
import { ReportActions } from './report-actions';
import { ReportError } from './report-error';
import { ReportMarkdown } from './report-markdown';
import { ReportProgress } from './report-progress';

/** What the right panel says of a report that has no text yet, and is not generating either. */
function NotStarted({ report }: { report: ReportDetail }) {
  const generate = useGenerateReport();
  if (report.status === 'CANCELLED') return <p className="muted">This report was cancelled.</p>;
  return (
    <div className="stack">
      <p className="muted">This report has not been generated yet.</p>
      <button type="button" className="button button-primary" disabled={generate.isPending} onClick={() => generate.mutate(report.id)}>
        Generate
      </button>
    </div>
  );
}

/**
 * 'Report Summary': the time taken and the report with its citations and actions once it is
 * done, the loading phrases and section progress (and Cancel) while it is generating, the error
 * state when it failed.
 */
export function ReportSummary({ report, citations }: { report: ReportDetail; citations: readonly ReportCitation[] }) {
  const cancel = useCancelReport();
  const result = report.result;
  const failed = hasFailed(result) || report.status === 'FAILED';
  return (
    <section className="report-summary" aria-labelledby="report-summary-title">
      <h3 id="report-summary-title" className="report-panel-title">
        Report Summary
      </h3>
      {typeof result?.time_taken === 'number' && <p className="small muted">Time taken: {minutesTaken(result.time_taken)}</p>}
      {isInProgress(report.status) ? (
        <>
          <ReportProgress report={report} />
          <button type="button" className="button" disabled={cancel.isPending} onClick={() => cancel.mutate(report.id)}>
            Cancel
          </button>
        </>
      ) : failed ? (
        <>
          <ReportError reason={result?.error_message} />
          <ReportActions reportId={report.id} result={result} canCopy={false} canExport={false} />
        </>
      ) : result ? (
        <>
          <ReportActions reportId={report.id} result={result} canCopy canExport={report.status === 'COMPLETED'} />
          <p>
            <Link to={`/ask-needl/full?report_id=${encodeURIComponent(report.id)}`} className="button-link">
              Ask about this report
            </Link>
          </p>
          <ReportMarkdown text={result.content} citations={citations} />
        </>
      ) : (
        <NotStarted report={report} />
      )}
    </section>
  );
}
