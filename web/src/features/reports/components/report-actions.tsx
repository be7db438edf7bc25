import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { copyText } from '../../../lib/clipboard';
import { notify } from '../../../lib/notices';
import { saveBlob } from '../../../lib/save-blob';
import { exportHref, type ReportOutput } from '../api/report-api';
import { COPIED, NO_RESPONSE } from '../messages';
import { rawDataFileName, rawDataJson } from '../report-format';

/** Saves the result's title, content and raw data as `{title}_response.json`; without a result, says so. */
export function downloadRawData(result: ReportOutput | null | undefined): void {
  if (!result) {
    notify({ type: 'error', message: NO_RESPONSE });
    return;
  }
  saveBlob(new Blob([rawDataJson(result)], { type: 'application/json' }), rawDataFileName(result.title));
}

/** Fetches the export with the token (a plain link would lack it) and saves it under the server's name. */
function useExport(reportId: string, title: string) {
  return useMutation({
    mutationFn: async (format: 'pdf' | 'docx') => {
      const file = await api.getFile(exportHref(reportId, format).replace(/^\/api/, ''));
      saveBlob(file.blob, file.fileName ?? `${title}.${format}`);
    },
  });
}

export interface ReportActionsProps {
  reportId: string;
  result: ReportOutput | null | undefined;
  /** Copy is hidden for a failed report (the spec). */
  canCopy: boolean;
  /** Exports exist only for a finished report. */
  canExport: boolean;
}

/** Copy Report, Download Raw Data, and the PDF and DOCX exports. */
export function ReportActions({ reportId, result, canCopy, canExport }: ReportActionsProps) {
  const exporter = useExport(reportId, result?.title ?? 'report');
  const copy = () =>
    copyText(result?.content ?? '').then(
      () => notify({ type: 'success', message: COPIED }),
      () => notify({ type: 'error', message: 'The browser refused to copy.' }),
    );
  return (
    <div className="report-actions" role="group" aria-label="Report actions">
      {canCopy && (
        <button type="button" className="button" onClick={() => void copy()}>
          Copy Report
        </button>
      )}
      <button type="button" className="button" onClick={() => downloadRawData(result)}>
        Download Raw Data
      </button>
      {canExport && (
        <>
          <button type="button" className="button" disabled={exporter.isPending} onClick={() => exporter.mutate('pdf')}>
            Export PDF
          </button>
          <button type="button" className="button" disabled={exporter.isPending} onClick={() => exporter.mutate('docx')}>
            Export DOCX
          </button>
        </>
      )}
    </div>
  );
}
