import { ERROR_BODY, ERROR_TITLE } from '../messages';

/** A failed report: the spec's two sentences, and the server's reason when it gave one a person can act on. */
export function ReportError({ reason }: { reason: string | null | undefined }) {
  return (
    <div className="report-error" role="alert">
      <p className="report-error-title">{ERROR_TITLE}</p>
      <p>{ERROR_BODY}</p>
      {reason && <p className="small">{reason}</p>}
    </div>
  );
}
