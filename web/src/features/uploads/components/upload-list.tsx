import { formatFileSize, shortenFileName } from '../../../lib/format';
import { isFinished, type UploadItem } from '../upload-state';
import { UploadStatus } from './upload-status';
import { XIcon } from '../../../components/ui/icons';

export interface UploadListProps {
  items: UploadItem[];
  onDismiss: (id: string) => void;
  onClearFinished: () => void;
  hasFinished: boolean;
}

/** The files sent to this source (from any page), newest batch last, each with its status. */
export function UploadList({ items, onDismiss, onClearFinished, hasFinished }: UploadListProps) {
  if (items.length === 0) return null;
  return (
    <div className="stack">
      <ul className="upload-list" aria-label="Uploads">
        {items.map((item) => (
          <li key={item.id} className="upload-row" data-testid="upload-item" data-status={item.status}>
            <span className="upload-row-name" title={item.name}>
              <span aria-hidden="true">{shortenFileName(item.name)}</span>
              <span className="visually-hidden">{item.name}</span>
            </span>
            <span className="small muted">{formatFileSize(item.size)}</span>
            <UploadStatus item={item} />
            {isFinished(item) && (
              <button type="button" className="icon-button" aria-label={`Dismiss ${item.name}`} onClick={() => onDismiss(item.id)}>
                <XIcon size={18} />
              </button>
            )}
          </li>
        ))}
      </ul>
      {hasFinished && (
        <div>
          <button type="button" className="button button-quiet" onClick={onClearFinished}>
            Clear finished
          </button>
        </div>
      )}
    </div>
  );
}
