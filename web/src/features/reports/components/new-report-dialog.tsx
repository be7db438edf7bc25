import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Modal } from '../../../components/ui/modal';
import { withOverlay } from '../../../lib/overlay/overlay-params';
import { reportKeys } from '../../../lib/queries/report-keys';
import { generateReport, initReport, reportQueries } from '../api/report-api';
import { useReportFiles } from '../hooks/use-report-files';
import { sourceCount } from '../messages';
import { ReportFileDrop } from './report-file-drop';

const OPEN_RESEARCH = 'open_research';

/**
 * New report: a type, a name (and for custom research, the brief), then the files to read
 * (uploaded into a draft report as they are picked) and/or one of the user's feeds. Generate
 * queues the report and opens it.
 */
export function NewReportDialog({ onClose }: { onClose: () => void }) {
  const config = useQuery(reportQueries.config());
  const feeds = useQuery(reportQueries.feeds());
  const [typeKey, setTypeKey] = useState('');
  const [name, setName] = useState('');
  const [brief, setBrief] = useState('');
  const [feedId, setFeedId] = useState('');
  const type = config.data?.find((t) => t.report_type === typeKey) ?? config.data?.[0];
  const research = type?.report_type === OPEN_RESEARCH;
  const files = useReportFiles(type, name.trim(), research ? brief.trim() : undefined);
  const canAddFiles = Boolean(type && name.trim() && (!research || brief.trim()));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  const added = files.items.filter((f) => f.status !== 'FAIL').length;

  const create = useMutation({
    mutationFn: async () => {
      if (!type) throw new Error('no report type');
      const id =
        files.reportId ??
        (await initReport({ report_type: type.report_type, name: name.trim(), feed_id: feedId || undefined, brief: brief.trim() || undefined })).id;
      return generateReport(id);
    },
    onSuccess: (report) => {
      onClose();
      navigate({ search: `?${withOverlay(new URLSearchParams(search), 'report', { 'report-id': report.id })}` });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportKeys.list() }),
  });

  const ready = Boolean(type && name.trim() && (files.reportId || feedId) && !files.uploading && !create.isPending);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) create.mutate();
  };

  const actions = (
    <>
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
      <button type="submit" form="new-report" className="button button-primary" disabled={!ready}>
        Generate
      </button>
    </>
  );

  return (
    <Modal title="New report" size="large" onClose={onClose} actions={actions}>
      <form id="new-report" className="stack" onSubmit={submit}>
        <label className="field">
          <span className="field-label">Type</span>
          <select className="select" value={type?.report_type ?? ''} disabled={files.items.length > 0} onChange={(e) => setTypeKey(e.target.value)}>
            {config.data?.map((t) => (
              <option key={t.report_type} value={t.report_type}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Name</span>
          <input className="input" value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
        </label>
        {research && (
          <label className="field">
            <span className="field-label">Brief: one question or topic a line</span>
            <textarea className="input report-comments" value={brief} onChange={(e) => setBrief(e.target.value)} />
          </label>
        )}
        <ReportFileDrop files={files} accept={type?.file_types.map((t) => `.${t.replace(/^\./, '')}`).join(',') ?? ''} disabled={!canAddFiles} />
        {!canAddFiles && <p className="small muted">{research ? 'Name the report and write its brief before adding files.' : 'Name the report before adding files.'}</p>}
        <label className="field">
          <span className="field-label">Or read a feed</span>
          <select className="select" value={feedId} disabled={files.items.length > 0} onChange={(e) => setFeedId(e.target.value)}>
            <option value="">No feed</option>
            {feeds.data?.map((f) => (
              <option key={f.board_id} value={f.board_id}>
                {f.board_name}
              </option>
            ))}
          </select>
        </label>
        <p className="small" aria-live="polite" data-testid="source-count">
          {sourceCount(added + (feedId ? 1 : 0))}
        </p>
      </form>
    </Modal>
  );
}
