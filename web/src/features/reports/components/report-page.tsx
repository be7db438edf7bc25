import { Link, Navigate, useParams } from 'react-router';
import { DASHBOARD_PATH } from '../report-paths';
import { ReportView } from './report-view';

/** The full-page report (`/report/{id}`); `/report` alone goes to the dashboard. */
export function ReportPage() {
  const { id } = useParams();
  if (!id) return <Navigate to={DASHBOARD_PATH} replace />;
  return (
    <div className="page report-page">
      <p>
        <Link to={DASHBOARD_PATH} className="button-link">
          All reports
        </Link>
      </p>
      <ReportView reportId={id} />
    </div>
  );
}
