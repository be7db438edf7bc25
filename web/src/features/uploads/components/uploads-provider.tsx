import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, type ReactNode } from 'react';
import { isApiError } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/live-events';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import type { ToastMeta } from '../../../lib/query-client';
import { transferFile } from '../api/transfer-file';
import { completeUpload, initUpload } from '../api/upload-api';
import { useUploadStatuses } from '../hooks/use-upload-statuses';
import { UploadsContext, type Uploads } from '../hooks/use-uploads';
import { UPLOAD_FAILED, UPLOAD_TOAST_MS } from '../messages';
import { newFileId, runUpload, type PendingFile, type UploadCalls } from '../run-upload';
import { initialUploadState, uploadReducer, withServerStatus } from '../upload-state';

const realCalls: UploadCalls = {
  init: initUpload,
  transfer: (file, link, contentType, onProgress) => transferFile(file, link, { contentType, onProgress }),
  complete: completeUpload,
  now: () => Date.now(),
};

/** The toast for a failed batch: the server's refusal (quota, limits) as it said it, else the spec's text. */
export const uploadFailureMessage = (error: unknown) =>
  isApiError(error) && error.status >= 400 && error.status < 500 && error.message ? error.message : UPLOAD_FAILED;

/**
 * Holds the app's uploads above the pages, so leaving the drive mid-upload loses nothing: runs
 * each batch (links, transfers with progress, complete), polls the statuses, and refreshes the
 * document lists and My Data's counts as files complete. Tests pass fake `calls`.
 */
export function UploadsProvider({ children, calls = realCalls }: { children: ReactNode; calls?: UploadCalls }) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(uploadReducer, initialUploadState);
  const { mutate: send } = useMutation({
    meta: { errorToast: uploadFailureMessage, toastDuration: UPLOAD_TOAST_MS } satisfies ToastMeta,
    mutationFn: ({ source, batchId, files }: { source: string; batchId: string; files: PendingFile[] }) =>
      runUpload(source, batchId, files, dispatch, calls),
  });
  const statuses = useUploadStatuses(state.batches);
  const items = useMemo(() => withServerStatus(state.items, statuses), [state.items, statuses]);

  const completed = items.filter((item) => item.status === 'COMPLETED').length;
  useEffect(() => {
    if (completed === 0) return;
    void refreshQueries(queryClient, { queryKey: documentKeys.lists() });
    void refreshQueries(queryClient, { queryKey: libraryKeys.all() });
  }, [completed, queryClient]);

  const start = useCallback(
    (source: string, files: PendingFile[]) => {
      const batchId = newFileId();
      dispatch({
        type: 'batch.added',
        batchId,
        source,
        files: files.map(({ id, file, mimeType }) => ({ id, name: file.name, size: file.size, mimeType })),
      });
      send({ source, batchId, files });
    },
    [send],
  );
  const dismiss = useCallback((id: string) => dispatch({ type: 'file.dismissed', id }), []);
  const clearFinished = useCallback((source: string) => dispatch({ type: 'finished.cleared', source }), []);
  const value = useMemo<Uploads>(() => ({ items, start, dismiss, clearFinished }), [items, start, dismiss, clearFinished]);
  return <UploadsContext.Provider value={value}>{children}</UploadsContext.Provider>;
}
