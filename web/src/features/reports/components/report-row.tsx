import { Link, useLocation } from 'react-router';
import { formatDate } from '../../../lib/format';
import { withOverlay } from '../../../lib/overlay/overlay-params';
import type { ReportItem } from '../api/report-api';
import { useCancelReport, useGenerateReport } from '../hooks/use-report-actions';
import { isInProgress, minutesTaken, statusLabel, typeLabel } from '../report-format';
import { reportPath } from '../report-paths';

/** One report in the dashboard: its name opens the overlay; a draft can be generated, a running one cancelled. */
export function ReportRow({ report }: { report: ReportItem }) {
  const { search } = useLocation();
  const generate = useGenerateReport();
  const cancel = useCancelReport();
  const overlay = `?${withOverlay(new URLSearchParams(search), 'report', { 'report-id': report.id })}`;
  const name = report.title || report.name;
  return (
    <li className="report-row card" data-testid="report-row" data-status={report.status}>
      <div className="report-row-main">
        <Link to={overlay} className="report-row-name">
          {name}
        </Link>
        <span className="small muted">{typeLabel(report.report_type)}</span>
      </div>
      <dl className="report-row-facts small">
        <div>
          <dt>Status</dt>
          <dd data-testid="report-row-status">
            {statusLabel(report.status)}
            {report.status === 'RUNNING' && report.sections > 0 && ` (${report.sections_done}/${report.sections})`}
          </dd>
        </div>
        <div>
          <dt>Time taken</dt>
          <dd>{typeof report.time_taken === 'number' ? minutesTaken(report.time_taken) : '-'}</dd>
        </div>
        <div>
          <dt>Rating</dt>
          <dd>{report.rating ? `${report.rating} of 5` : 'Not rated'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(report.created_at)}</dd>
        </div>
      </dl>
      <div className="report-row-actions">
        {report.status === 'DRAFT' && (
          <button type="button" className="button button-primary" disabled={generate.isPending} onClick={() => generate.mutate(report.id)}>
            Generate
          </button>
        )}
        {isInProgress(report.status) && (
          <button type="button" className="button" disabled={cancel.isPending} onClick={() => cancel.mutate(report.id)}>
            Cancel
          </button>
        )}
        <Link to={reportPath(report.id)} className="button button-quiet" aria-label={`Open ${name} as a page`}>
          Full page
        </Link>
      </div>
    </li>
  );
}
