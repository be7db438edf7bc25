import { formatFileSize, shortenFileName } from '../../../lib/format';
import type { FileInfo } from '../document-display';

/** An uploaded file's name (cut to 10 characters, in full for screen readers and on hover) and size. */
export function FileFacts({ file }: { file: FileInfo }) {
  return (
    <p className="doc-card-file small" data-testid="file-facts">
      <span className="file-name" title={file.name}>
        <span aria-hidden="true">{shortenFileName(file.name)}</span>
        <span className="visually-hidden">{file.name}</span>
      </span>
      {file.size !== null && <span className="muted">{formatFileSize(file.size)}</span>}
    </p>
  );
}
