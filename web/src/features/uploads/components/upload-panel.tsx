import { useId } from 'react';
import { megabytes } from '../../../lib/format';
import type { UploadConfig } from '../api/upload-api';
import { useFileUpload } from '../hooks/use-file-upload';
import { acceptAttribute } from '../upload-validation';
import { DropZone } from './drop-zone';
import { UploadList } from './upload-list';

/** Returns the limits in words: "Up to 20 files at a time, 50 MB each. PDF, MD." */
export function limitsText(config: UploadConfig): string {
  const types = config.file_types.length ? ` ${config.file_types.map((t) => t.toUpperCase()).join(', ')}.` : '';
  return `Up to ${config.file_count_limit} files at a time, ${megabytes(config.file_size_limit)} MB each.${types}`;
}

/** Uploading to a source (the drive): the drop zone and the files on their way. */
export function UploadPanel({ source }: { source: string }) {
  const upload = useFileUpload(source);
  const headingId = useId();
  const { config } = upload;
  return (
    <section className="card stack upload-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        Upload files
      </h2>
      <DropZone
        accept={acceptAttribute(config.data)}
        disabled={!config.data}
        onPick={upload.upload}
        onDrop={(dropped) => void upload.uploadDropped(dropped)}
        hint={config.data ? limitsText(config.data) : undefined}
      />
      {config.isError && (
        <p className="form-error" role="alert">
          The upload limits could not be loaded, so uploading is off.{' '}
          <button type="button" className="button button-quiet" onClick={() => void config.refetch()}>
            Try again
          </button>
        </p>
      )}
      <UploadList
        items={upload.items}
        onDismiss={upload.dismiss}
        onClearFinished={upload.clearFinished}
        hasFinished={upload.hasFinished}
      />
    </section>
  );
}
