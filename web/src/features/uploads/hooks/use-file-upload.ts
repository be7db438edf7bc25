import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { isApiError } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/live-events';
import { notify } from '../../../lib/notices';
import { documentKeys } from '../../../lib/queries/document-keys';
import type { ToastMeta } from '../../../lib/query-client';
import { completeUpload, initUpload, uploadQueries } from '../api/upload-api';
import { transferFile } from '../api/transfer-file';
import { FOLDER_NOT_ALLOWED, UPLOAD_FAILED, UPLOAD_TOAST_MS } from '../messages';
import { filesInFolder, type DroppedEntries } from '../read-drop';
import { runUpload, type PendingFile, type UploadCalls } from '../run-upload';
import { initialUploadState, isFinished, uploadReducer, withServerStatus } from '../upload-state';
import { mimeTypeOf, validateFiles } from '../upload-validation';
import { useUploadStatuses } from './use-upload-statuses';

/** Returns a random id for a file; works on plain-HTTP hosts, where randomUUID does not exist. */
export function newFileId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const calls: UploadCalls = {
  init: initUpload,
  transfer: (file, link, contentType, onProgress) => transferFile(file, link, { contentType, onProgress }),
  complete: completeUpload,
  now: () => Date.now(),
};

/** The toast for a failed batch: the server's refusal (quota, limits) as it said it, else the spec's text. */
export const uploadFailureMessage = (error: unknown) =>
  isApiError(error) && error.status >= 400 && error.status < 500 && error.message ? error.message : UPLOAD_FAILED;

const refuse = (message: string) => notify({ type: 'error', message, duration: UPLOAD_TOAST_MS });

/**
 * Uploads files to `source` and follows them until they are documents: checks them against the
 * source's limits, runs each batch (links, transfers with progress, complete), polls the
 * statuses, and refreshes the document lists as files complete.
 */
export function useFileUpload(source: string) {
  const queryClient = useQueryClient();
  const config = useQuery(uploadQueries.config(source));
  const [state, dispatch] = useReducer(uploadReducer, initialUploadState);
  const { mutate: send } = useMutation({
    meta: { errorToast: uploadFailureMessage, toastDuration: UPLOAD_TOAST_MS } satisfies ToastMeta,
    mutationFn: ({ batchId, files }: { batchId: string; files: PendingFile[] }) =>
      runUpload(source, batchId, files, dispatch, calls),
  });
  const statuses = useUploadStatuses(state.batches);
  const items = useMemo(() => withServerStatus(state.items, statuses), [state.items, statuses]);

  const completed = items.filter((item) => item.status === 'COMPLETED').length;
  useEffect(() => {
    if (completed > 0) void refreshQueries(queryClient, { queryKey: documentKeys.lists() });
  }, [completed, queryClient]);

  const limits = config.data;
  const upload = useCallback(
    (files: File[]) => {
      if (!limits || files.length === 0) return;
      const { accepted, errors } = validateFiles(files, limits);
      errors.forEach(refuse);
      if (accepted.length === 0) return;
      const pending = accepted.map((file) => ({ id: newFileId(), file, mimeType: mimeTypeOf(file) }));
      const batchId = newFileId();
      dispatch({
        type: 'batch.added',
        batchId,
        files: pending.map(({ id, file, mimeType }) => ({ id, name: file.name, size: file.size, mimeType })),
      });
      send({ batchId, files: pending });
    },
    [limits, send],
  );

  const uploadDropped = useCallback(
    async ({ files, folders }: DroppedEntries) => {
      if (!limits) return;
      if (folders.length > 0 && !limits.allow_folder_upload) refuse(FOLDER_NOT_ALLOWED);
      const inFolders = limits.allow_folder_upload ? (await Promise.all(folders.map(filesInFolder))).flat() : [];
      upload([...files, ...inFolders]);
    },
    [limits, upload],
  );

  return {
    config,
    items,
    upload,
    uploadDropped,
    dismiss: useCallback((id: string) => dispatch({ type: 'file.dismissed', id }), []),
    clearFinished: useCallback(() => dispatch({ type: 'finished.cleared' }), []),
    hasFinished: items.some(isFinished),
  };
}
