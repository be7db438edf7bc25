import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { reportQueries } from '../api/report-api';
import { NewReportDialog } from './new-report-dialog';
import { ReportRow } from './report-row';

/**
 * The user's research reports (`/managers/report_generation/dashboard`): each with its type,
 * live status, time taken, rating and date. The list refetches every 60 s and whenever the live
 * socket says a report changed. New report starts one.
 */
export function ReportsDashboardPage() {
  const reports = useQuery(reportQueries.list());
  const [creating, setCreating] = useState(false);
  return (
    <div className="page-narrow stack-lg reports-dashboard">
      <div className="row reports-dashboard-head">
        <h2>Your reports</h2>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          New report
        </button>
      </div>
      <ListState
        query={reports}
        loadingLabel="Loading your reports"
        errorTitle="Your reports could not be loaded"
        isEmpty={(list) => list.length === 0}
        emptyTitle="No reports yet"
        emptyHint="Start one with New report: pick a type, add your files or a feed, and generate it."
      >
        {(list) => (
          <ul className="report-list" aria-label="Reports">
            {list.map((report) => (
              <ReportRow key={report.id} report={report} />
            ))}
          </ul>
        )}
      </ListState>
      {creating && <NewReportDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
