import type { RefObject } from 'react';
import { useCardActions } from '../../../lib/card-actions';
import { previewPath } from '../../../lib/document-links';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/media';
import { mayDelete } from '../action-rules';
import type { DocumentCard, DocumentKeys } from '../api/document-api';
import { hasPdfPages } from '../api/table-api';
import type { FileInfo } from '../document-display';
import { DEFAULT_DOCUMENT_FLAGS, type DocumentFlags } from '../hooks/use-document-flags';
import { FileActions } from './file-actions';
import { FullScreenButton } from './full-screen-button';
import { ReadToggle } from './read-toggle';
import { ShareButton } from './share-button';
import { SummaryButton } from './summary-button';
import { TablesButton } from './tables-button';
import '../document-tools.css';

export interface DocumentActionsProps {
  doc: DocumentCard;
  read: boolean;
  onToggleRead: () => void;
  /** The uploaded file behind the document, if any (Download and Delete). */
  file: FileInfo | null;
  /** The preview's category, for the shared link. */
  category?: string;
  flags?: DocumentFlags;
  /** The keys the document was opened with (a shared link's), for the download. */
  keys?: DocumentKeys;
  onDeleted?: () => void;
  /** The preview only: the region Full screen fills, and the full page to go to where it cannot. */
  fullScreen?: { target: RefObject<HTMLElement | null>; fallbackPath: string | null };
}

/** Returns the document's preview address with the keys it was opened with. */
const previewHref = (doc: DocumentCard, category: string | undefined, keys: DocumentKeys = {}) =>
  previewPath(
    { deeplink: doc.deeplink, source: doc.source, access_key: keys.access_key ?? doc.access_key },
    category,
    keys.public_access_key ? { public_access_key: keys.public_access_key } : {},
  );

/**
 * What can be done with a document, on cards and in the preview: read or unread, its file's
 * Download and Delete (Delete as spec §6 allows, see `mayDelete`), Share (flag `doc_share`),
 * Summarize (`doc_summarization`), Extract tables (`doc_table_extraction`, PDFs only), open in
 * source (`doc_open_in_source`, for items with a link), open in a new tab
 * (`doc_open_in_new_tab`), Full screen in the preview (`doc_full_screen_view`), then the actions
 * other features add to cards (src/lib/card-actions: Add to Notes). New tabs get no hold on this one.
 * The row wraps on a narrow screen.
 */
export function DocumentActions(props: DocumentActionsProps) {
  const { doc, read, onToggleRead, file, category, flags = DEFAULT_DOCUMENT_FLAGS, keys, onDeleted, fullScreen } = props;
  const added = useCardActions();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const canDelete = flags.delete !== false && mayDelete(doc, { category, keys, mobile });
  const target = {
    deeplink: doc.deeplink,
    source: doc.source,
    title: doc.title,
    link: doc.link,
    excerpt: doc.summary,
    previewPath: previewPath(doc, category),
  };
  return (
    <div className="doc-card-actions">
      <ReadToggle read={read} onToggle={onToggleRead} subject={doc.title} />
      {file && <FileActions doc={doc} file={file} keys={keys} onDeleted={onDeleted} canDelete={canDelete} />}
      {flags.share && <ShareButton doc={doc} category={category} />}
      {flags.summarize && <SummaryButton doc={doc} />}
      {flags.tables && hasPdfPages(doc) && <TablesButton doc={doc} />}
      {flags.openInSource && doc.link && (
        <a className="button button-quiet" href={doc.link} target="_blank" rel="noopener noreferrer">
          Open in source<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      )}
      {flags.openInNewTab && (
        <a className="button button-quiet" href={previewHref(doc, category, keys)} target="_blank" rel="noopener">
          Open in new tab
        </a>
      )}
      {flags.fullScreen && fullScreen && <FullScreenButton target={fullScreen.target} fallbackPath={fullScreen.fallbackPath} />}
      {added.map((Action, index) => (
        <Action key={index} target={target} />
      ))}
    </div>
  );
}
