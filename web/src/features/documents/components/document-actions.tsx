import { useCardActions } from '../../../lib/card-actions';
import { previewPath } from '../../../lib/document-links';
import type { DocumentCard, DocumentKeys } from '../api/document-api';
import type { FileInfo } from '../document-display';
import { DEFAULT_DOCUMENT_FLAGS, type DocumentFlags } from '../hooks/use-document-flags';
import { FileActions } from './file-actions';
import { ReadToggle } from './read-toggle';
import { ShareButton } from './share-button';

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
}

/**
 * What can be done with a document, on cards and in the preview: read or unread, its file's
 * Download and Delete, Share (flag `doc_share`) and open in source (flag `doc_open_in_source`,
 * for items with a link: a new tab that gets no hold on this one), then the actions other
 * features add to cards (src/lib/card-actions: Add to Notes).
 */
export function DocumentActions({ doc, read, onToggleRead, file, category, flags = DEFAULT_DOCUMENT_FLAGS, keys, onDeleted }: DocumentActionsProps) {
  const added = useCardActions();
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
      {file && <FileActions doc={doc} file={file} keys={keys} onDeleted={onDeleted} canDelete={flags.delete !== false} />}
      {flags.share && <ShareButton doc={doc} category={category} />}
      {flags.openInSource && doc.link && (
        <a className="button button-quiet" href={doc.link} target="_blank" rel="noopener noreferrer">
          Open in source<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      )}
      {added.map((Action, index) => (
        <Action key={index} target={target} />
      ))}
    </div>
  );
}
