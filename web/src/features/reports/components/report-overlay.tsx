import type { OverlayBodyProps } from '../../../lib/overlay/overlay-registry';
import { ReportView } from './report-view';

/** The report overlay's body (`overlay-type=report&overlay-report-id=…`). */
export function ReportOverlayBody({ params }: OverlayBodyProps<{ 'report-id': string }>) {
  return (
    <div className="overlay-body">
      <ReportView reportId={params['report-id']} />
    </div>
  );
}
