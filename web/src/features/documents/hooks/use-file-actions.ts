import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-client';
import { documentKeys } from '../../../lib/queries/document-keys';
import { saveBlob } from '../../../lib/save-blob';
import type { ToastMeta } from '../../../lib/query-client';
import { deleteDocument, documentQueries, type DocumentCard, type DocumentKeys, type DocumentPage } from '../api/document-api';

export const DOWNLOAD_FAILED = 'Download failed.';
export const DOWNLOADED = 'Downloaded Successfully';
export const removalFailed = (name: string, message: string) => `Error removing file: ${name} ${message}`;

/** A file, by its document; `keys` are those the document was opened with (a shared link's). */
type FileTarget = { doc: Pick<DocumentCard, 'deeplink' | 'source'>; name: string; keys?: DocumentKeys };

/** Downloads an uploaded document's original file, with the token (a plain link would lack it). */
export function useDownloadFile() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: DOWNLOAD_FAILED, successToast: DOWNLOADED } satisfies ToastMeta,
    mutationFn: async ({ doc, name, keys }: FileTarget) => {
      const file = await queryClient.fetchQuery(documentQueries.file(doc.deeplink, doc.source, keys));
      // The card's name first: the header's is kept to ASCII by the server.
      saveBlob(file.blob, name || file.fileName || 'document');
    },
  });
}

/** A lost session keeps its own prompt; anything else becomes the spec's removal message. */
const asRemovalError = (name: string, error: unknown) =>
  isApiError(error) && (error.status === 401 || error.code === 'token_expired')
    ? error
    : new Error(removalFailed(name, error instanceof Error ? error.message : String(error)));

const withoutDocument = (deeplink: string) => (data: InfiniteData<DocumentPage> | undefined) =>
  data && {
    ...data,
    pages: data.pages.map((page) => ({ ...page, results: page.results.filter((d) => d.deeplink !== deeplink) })),
  };

/** Deletes a document its owner uploaded; it leaves the lists at once and they refetch. */
export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: (error: unknown) => (error instanceof Error ? error.message : String(error)) } satisfies ToastMeta,
    mutationFn: async ({ doc, name }: FileTarget) => {
      try {
        await deleteDocument(doc.source, doc.deeplink);
      } catch (error) {
        throw asRemovalError(name, error);
      }
    },
    onSuccess: (_data, { doc }) => {
      queryClient.setQueriesData<InfiniteData<DocumentPage>>({ queryKey: documentKeys.lists() }, withoutDocument(doc.deeplink));
      queryClient.removeQueries({ queryKey: documentKeys.document(doc.deeplink) });
      return queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
    },
  });
}
