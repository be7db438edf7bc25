/**
 * The files of a report being made: picked files are checked (pickReportFiles), then each batch
 * goes up through the report upload calls; the first batch makes the draft report, later ones
 * are added to it. Each file shows its progress until it is done or failed.
 */
import { useCallback, useRef, useState } from 'react';
import { notify } from '../../../lib/notices';
import type { ReportTypeConfig } from '../api/report-api';
import { completeReportUpload, initReportUpload, removeReportFiles, sendFile } from '../api/report-upload-api';
import { LIMIT_TOAST_MS, removeFailed, UPLOAD_FAILED, UPLOAD_TOAST_MS } from '../messages';
import { mimeTypeOf, pickReportFiles } from '../report-files';

/** The spec's upload statuses of a report file: in progress (a number below 100), DONE or FAIL. */
export type ReportFileStatus = 'PENDING' | 'DONE' | 'FAIL';

export interface ReportFileItem {
  id: string;
  file: File;
  progress: number;
  status: ReportFileStatus;
}

/** Returns a random file id; works on plain-HTTP hosts, where randomUUID does not exist. */
const newFileId = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export interface ReportFiles {
  items: ReportFileItem[];
  /** The draft report the uploaded files belong to (null until the first batch is in). */
  reportId: string | null;
  uploading: boolean;
  add: (files: File[]) => void;
  remove: (id: string) => void;
}

export function useReportFiles(type: ReportTypeConfig | undefined, reportName: string, brief?: string): ReportFiles {
  const [items, setItems] = useState<ReportFileItem[]>([]);
  const [reportId, setReportId] = useState<string | null>(null);
  const [running, setRunning] = useState(0);
  // Batches run one after another, so the second batch joins the draft the first one made.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const draft = useRef<string | null>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const patch = useCallback((id: string, change: Partial<ReportFileItem>) => {
    setItems((all) => all.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const upload = useCallback(
    async (batch: ReportFileItem[], config: ReportTypeConfig) => {
      try {
        const links = await initReportUpload(
          config.report_type,
          batch.map(({ id, file }) => ({ id, name: file.name, mime_type: mimeTypeOf(file), size: file.size })),
        );
        const sent = await Promise.all(
          batch.map(async (item, index) => {
            const link = links.find((l) => l.id === item.id) ?? links[index];
            try {
              if (!link) throw new Error(`no upload link for ${item.file.name}`);
              await sendFile(item.file, link, mimeTypeOf(item.file), (progress) => patch(item.id, { progress }));
              return { item, link };
            } catch (error) {
              console.error('report file upload failed', item.file.name, error);
              patch(item.id, { status: 'FAIL' });
              return null;
            }
          }),
        );
        const ok = sent.filter((s): s is NonNullable<typeof s> => s !== null);
        if (ok.length === 0) throw new Error('no file reached storage');
        const result = await completeReportUpload({
          reportType: config.report_type,
          reportName,
          reportId: draft.current,
          brief,
          files: ok.map(({ item, link }) => ({
            bucket: link.metadata_fields.bucket,
            key: link.metadata_fields.key,
            metadata: { name: item.file.name, mime_type: mimeTypeOf(item.file), id: item.id },
          })),
        });
        if (result.feed_id) {
          draft.current = result.feed_id;
          setReportId(result.feed_id);
        }
        ok.forEach(({ item }) => patch(item.id, { status: 'DONE', progress: 100 }));
        if (ok.length < batch.length) notify({ type: 'error', message: UPLOAD_FAILED, duration: UPLOAD_TOAST_MS });
      } catch (error) {
        console.error('report upload failed', error);
        batch.forEach((item) => patch(item.id, { status: 'FAIL' }));
        notify({ type: 'error', message: UPLOAD_FAILED, duration: UPLOAD_TOAST_MS });
      }
    },
    [patch, reportName, brief],
  );

  const add = useCallback(
    (files: File[]) => {
      if (!type) return;
      const kept = itemsRef.current.filter((i) => i.status !== 'FAIL').map((i) => i.file);
      const pick = pickReportFiles(kept, files, type);
      pick.errors.forEach((message) =>
        notify({ type: 'error', message, duration: pick.truncated && message === pick.errors.at(-1) ? LIMIT_TOAST_MS : UPLOAD_TOAST_MS }),
      );
      if (pick.added.length === 0) return;
      const batch = pick.added.map((file) => ({ id: newFileId(), file, progress: 0, status: 'PENDING' as const }));
      setItems((all) => [...all, ...batch]);
      setRunning((n) => n + 1);
      queue.current = queue.current.then(() => upload(batch, type)).finally(() => setRunning((n) => n - 1));
    },
    [type, upload],
  );

  const remove = useCallback(
    (id: string) => {
      const item = itemsRef.current.find((i) => i.id === id);
      if (!item) return;
      setItems((all) => all.filter((i) => i.id !== id));
      if (item.status === 'DONE' && draft.current && type) {
        removeReportFiles(draft.current, type.report_type, [id]).catch((error: unknown) => {
          setItems((all) => [...all, item]);
          notify({ type: 'error', message: removeFailed(item.file.name, error instanceof Error ? error.message : String(error)) });
        });
      }
    },
    [type],
  );

  return { items, reportId, uploading: running > 0, add, remove };
}
