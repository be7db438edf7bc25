import { Spinner } from '../../../components/ui/spinner';
import type { ReportDetail } from '../api/report-api';
import { useLoadingPhrase } from '../hooks/use-loading-phrase';
import { LOADING_NOTE } from '../messages';

/**
 * A report being generated: the loading phrase (a new one every 2 s, staying on the last), the
 * note, and how many sections are written, with the heading being written now.
 */
export function ReportProgress({ report }: { report: Pick<ReportDetail, 'status' | 'sections'> }) {
  const phrase = useLoadingPhrase();
  const total = report.sections.length;
  const done = report.sections.filter((s) => s.status === 'COMPLETED').length;
  const writing = report.sections.find((s) => s.status !== 'COMPLETED');
  return (
    <div className="report-progress stack" aria-live="polite">
      <Spinner label="Generating the report" />
      <p className="report-phrase" data-testid="report-phrase">
        {phrase}
      </p>
      <p className="small muted">{LOADING_NOTE}</p>
      {total > 0 && (
        <>
          <progress className="report-progress-bar" max={total} value={done} aria-label="Sections written" />
          <p className="small">
            {done} of {total} sections written{writing ? `; writing: ${writing.heading}` : ''}
          </p>
        </>
      )}
      {report.status === 'QUEUED' && <p className="small muted">Waiting for a worker to start.</p>}
    </div>
  );
}
