import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { DocumentCard, DocumentKeys } from '../api/document-api';
import type { FileInfo } from '../document-display';
import { useDeleteDocument, useDownloadFile } from '../hooks/use-file-actions';

export interface FileActionsProps {
  doc: Pick<DocumentCard, 'deeplink' | 'source' | 'owned'>;
  file: FileInfo;
  /** Called once the document is deleted (the preview leaves the page). */
  onDeleted?: () => void;
  /** The keys the document was opened with, for the download. */
  keys?: DocumentKeys;
  /** False hides Delete (the tags and bookmarks views). */
  canDelete?: boolean;
}

/** Download and, for the user's own uploads and after a confirmation, Delete. */
export function FileActions({ doc, file, onDeleted, keys, canDelete = true }: FileActionsProps) {
  const download = useDownloadFile();
  const remove = useDeleteDocument();
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const target = { doc, name: file.name };
  // Focus goes back to Delete when the question closes without deleting.
  const cancel = () => {
    setConfirming(false);
    requestAnimationFrame(() => deleteButton.current?.focus());
  };

  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        aria-label={`Download ${file.name}`}
        disabled={download.isPending}
        onClick={() => download.mutate({ ...target, keys })}
      >
        {download.isPending ? 'Downloading…' : 'Download'}
      </button>
      {canDelete && doc.owned !== false && (
        <button
          ref={deleteButton}
          type="button"
          className="button button-quiet button-danger-text"
          aria-label={`Delete ${file.name}`}
          onClick={() => setConfirming(true)}
        >
          Delete
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          title="Delete this file?"
          confirmLabel="Delete"
          pending={remove.isPending}
          onCancel={cancel}
          onConfirm={() =>
            remove.mutate(target, {
              onSuccess: () => {
                setConfirming(false);
                onDeleted?.();
              },
              onError: cancel,
            })
          }
        >
          <p>“{file.name}” and the document made from it will be removed. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
