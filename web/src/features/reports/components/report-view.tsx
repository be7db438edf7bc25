import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { reportQueries } from '../api/report-api';
import { hasFailed, statusLabel, typeLabel } from '../report-format';
import { reportCitations } from '../report-links';
import { FeedbackForm } from './feedback-form';
import { FilesAdded } from './files-added';
import { ReportSummary } from './report-summary';

/**
 * One report, as the overlay and the full page show it: on the left the files and the feedback
 * form (hidden for a failed report), on the right the summary. The live socket refreshes it.
 */
export function ReportView({ reportId }: { reportId: string }) {
  const query = useQuery(reportQueries.detail(reportId));
  const citations = useMemo(() => reportCitations(query.data?.result?.raw_data), [query.data?.result?.raw_data]);
  return (
    <ListState query={query} loadingLabel="Loading the report" errorTitle="This report could not be loaded">
      {(report) => (
        <article className="report-view" aria-label={report.name}>
          <header className="report-view-head">
            <h2 className="report-view-title">{report.result?.title || report.name}</h2>
            <p className="small muted">
              {typeLabel(report.report_type)} · <span data-testid="report-status">{statusLabel(report.status)}</span>
            </p>
          </header>
          <div className="report-columns">
            <div className="report-left stack">
              <FilesAdded documents={report.payload.documents} citations={citations} />
              {report.status === 'COMPLETED' && !hasFailed(report.result) && (
                <FeedbackForm reportId={report.id} savedRating={report.rating} savedComments={report.comments} />
              )}
            </div>
            <div className="report-right">
              <ReportSummary report={report} citations={citations} />
            </div>
          </div>
        </article>
      )}
    </ListState>
  );
}
