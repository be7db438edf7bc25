import { useRef, useState, type DragEvent } from 'react';
import { ProgressRing } from '../../../components/ui/progress-ring';
import { CheckIcon, XIcon } from '../../../components/ui/icons';
import { notify } from '../../../lib/notices';
import type { ReportFiles } from '../hooks/use-report-files';
import { FOLDER_NOT_ALLOWED, UPLOAD_TOAST_MS } from '../messages';

/** Returns the dropped files; a dropped folder is refused (report types take no folders). */
function droppedFiles(data: DataTransfer): File[] {
  const items = Array.from(data.items ?? []);
  const folder = items.some((item) => item.kind === 'file' && item.webkitGetAsEntry?.()?.isDirectory);
  if (folder) notify({ type: 'error', message: FOLDER_NOT_ALLOWED, duration: UPLOAD_TOAST_MS });
  return Array.from(data.files ?? []).filter((_file, i) => !(items[i]?.webkitGetAsEntry?.()?.isDirectory ?? false));
}

/** The report's files: a drop zone with a picker, and each file with its progress ring, done or failed mark. */
export function ReportFileDrop({ files, accept, disabled }: { files: ReportFiles; accept: string; disabled: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) files.add(droppedFiles(event.dataTransfer));
  };
  return (
    <div className="stack">
      <div
        role="group"
        aria-label="Report files"
        className={over ? 'drop-zone drop-zone-active' : 'drop-zone'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p className="drop-zone-text">Drop files here</p>
        <button type="button" className="button" disabled={disabled} onClick={() => input.current?.click()}>
          Choose files
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept={accept}
          aria-label="Choose report files"
          onChange={(e) => {
            files.add(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </div>
      {files.items.length > 0 && (
        <ul className="report-upload-list" aria-label="Files to read">
          {files.items.map((item) => (
            <li key={item.id} className="report-upload-item" data-testid="report-upload" data-status={item.status}>
              {item.status === 'FAIL' ? (
                <span role="img" aria-label="Failed" className="status-mark-error">
                  <XIcon size={20} />
                </span>
              ) : item.status === 'DONE' || item.progress >= 100 ? (
                <span role="img" aria-label="Uploaded">
                  <CheckIcon size={20} />
                </span>
              ) : (
                <ProgressRing value={item.progress} label={`Uploading ${item.file.name}`} />
              )}
              <span className="file-name">{item.file.name}</span>
              <button type="button" className="icon-button" aria-label={`Remove ${item.file.name}`} onClick={() => files.remove(item.id)}>
                <XIcon size={18} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
