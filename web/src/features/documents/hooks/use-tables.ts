import { useMutation } from '@tanstack/react-query';
import { serverMessage } from '../../../lib/api-client';
import type { ToastMeta } from '../../../lib/query-client';
import { saveBlob } from '../../../lib/save-blob';
import type { DocumentCard } from '../api/document-api';
import { downloadTables, type TableFormat } from '../api/table-api';
import { DOWNLOAD_FAILED, DOWNLOADED } from './use-file-actions';

interface TablesDownload {
  doc: Pick<DocumentCard, 'deeplink' | 'source' | 'title'>;
  format: TableFormat;
}

/**
 * Downloads a document's tables as one file, with the token (a plain link would lack it), under
 * the name the server gave. A refusal in the server's words ("No tables were found…"), else the
 * download's own failure message.
 */
export function useDownloadTables() {
  return useMutation({
    meta: { errorToast: (error: unknown) => serverMessage(error) ?? DOWNLOAD_FAILED, successToast: DOWNLOADED } satisfies ToastMeta,
    mutationFn: async ({ doc, format }: TablesDownload) => {
      const file = await downloadTables(doc, format);
      saveBlob(file.blob, file.fileName ?? `${doc.title} tables.${format}`);
    },
  });
}
