import type { DocumentCard } from '../api/document-api';
import { useShareDocument } from '../hooks/use-share-document';

export interface ShareButtonProps {
  doc: Pick<DocumentCard, 'deeplink' | 'source' | 'title'>;
  /** The preview's category the link opens in. */
  category?: string;
}

/** Makes a shared link to the document and copies it. */
export function ShareButton({ doc, category }: ShareButtonProps) {
  const share = useShareDocument();
  return (
    <button
      type="button"
      className="button button-quiet"
      aria-label={`Share ${doc.title}`}
      disabled={share.isPending}
      onClick={() => share.mutate({ doc, category })}
    >
      {share.isPending ? 'Sharing…' : 'Share'}
    </button>
  );
}
