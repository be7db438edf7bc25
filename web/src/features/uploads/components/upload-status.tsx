import { ProgressRing } from '../../../components/ui/progress-ring';
import type { UploadItem } from '../upload-state';
import { CheckIcon } from '../../../components/ui/icons';

/**
 * What one file is doing: a progress ring while it uploads, a spinner while the server
 * processes it, a done mark, or an error icon with the reason.
 */
export function UploadStatus({ item }: { item: UploadItem }) {
  switch (item.status) {
    case 'UPLOADING':
      return (
        <span className="upload-status">
          <ProgressRing value={item.progress} label={`Uploading ${item.name}`} />
          <span className="small muted">{item.progress}%</span>
        </span>
      );
    case 'PROCESSING':
      return (
        <span className="upload-status" role="status">
          <span className="spinner spinner-small" aria-hidden="true" />
          <span className="small muted">Processing</span>
        </span>
      );
    case 'COMPLETED':
      return (
        <span className="upload-status upload-status-done">
          <span className="status-mark" aria-hidden="true">
            <CheckIcon size={14} strokeWidth={3} />
          </span>
          <span className="small">Completed</span>
        </span>
      );
    default:
      return (
        <span className="upload-status upload-status-error">
          <span className="status-mark status-mark-error" aria-hidden="true">
            !
          </span>
          <span className="small">
            {item.status === 'FAILED' ? 'Processing failed' : 'Upload failed'}
            {item.error ? `: ${item.error}` : ''}
          </span>
        </span>
      );
  }
}
