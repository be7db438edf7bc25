import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { notify } from '../../../lib/notices';
import { uploadQueries } from '../api/upload-api';
import { FOLDER_NOT_ALLOWED, UPLOAD_TOAST_MS } from '../messages';
import { filesInFolder, type DroppedEntries } from '../read-drop';
import { newFileId } from '../run-upload';
import { isFinished } from '../upload-state';
import { mimeTypeOf, validateFiles } from '../upload-validation';
import { useUploads } from './use-uploads';

const refuse = (message: string) => notify({ type: 'error', message, duration: UPLOAD_TOAST_MS });

/**
 * Uploading to `source` from a page: checks files against the source's limits (refusals become
 * notices) and hands the accepted ones to the app's uploads, which send them and follow them
 * until they are documents. Returns this source's files with their statuses.
 */
export function useFileUpload(source: string) {
  const config = useQuery(uploadQueries.config(source));
  const { items: all, start, dismiss, clearFinished } = useUploads();
  const items = useMemo(() => all.filter((item) => item.source === source), [all, source]);

  const limits = config.data;
  /** Returns the upload ids of the files accepted. */
  const upload = useCallback(
    (files: File[]): string[] => {
      if (!limits || files.length === 0) return [];
      const { accepted, errors } = validateFiles(files, limits);
      errors.forEach(refuse);
      if (accepted.length === 0) return [];
      const pending = accepted.map((file) => ({ id: newFileId(), file, mimeType: mimeTypeOf(file) }));
      start(source, pending);
      return pending.map((p) => p.id);
    },
    [limits, source, start],
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
    dismiss,
    clearFinished: useCallback(() => clearFinished(source), [clearFinished, source]),
    hasFinished: items.some(isFinished),
  };
}
