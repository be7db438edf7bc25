import { useMemo, type ReactNode } from 'react';
import { ASK_UPLOAD_SOURCE, AskUploaderContext, type AskUploader } from '../../features/ask-needl';
import { AskNeedlHistoryPage, AskNeedlOverlayBody, AskNeedlPage } from '../../features/ask-needl/pages';
import { useFileUpload } from '../../features/uploads';

/**
 * Where the assistant meets uploads: its attachments go through the app's uploads (source
 * `ask_needl`, the server's limits, status polling), handed to it as an `AskUploader`, so
 * neither feature imports the other.
 */
function AskUploads({ children }: { children: ReactNode }) {
  const uploads = useFileUpload(ASK_UPLOAD_SOURCE);
  const countLimit = uploads.config.data?.file_count_limit ?? null;
  const { items, upload, dismiss } = uploads;
  const uploader = useMemo<AskUploader>(() => ({ items, countLimit, upload, dismiss }), [items, countLimit, upload, dismiss]);
  return <AskUploaderContext.Provider value={uploader}>{children}</AskUploaderContext.Provider>;
}

/** /ask-needl/full */
export function AskNeedlFullPage() {
  return (
    <AskUploads>
      <AskNeedlPage />
    </AskUploads>
  );
}

/** /ask-needl/history?sessionId= */
export function AskNeedlHistory() {
  return (
    <AskUploads>
      <AskNeedlHistoryPage />
    </AskUploads>
  );
}

/** The body of the ask-needl overlay. */
export function AskNeedlOverlay() {
  return (
    <AskUploads>
      <AskNeedlOverlayBody />
    </AskUploads>
  );
}
