import { useQuery } from '@tanstack/react-query';
import { featureQueries } from '../../../lib/queries/feature-queries';

/** The document actions the user's feature flags turn on. */
export interface DocumentFlags {
  /** `doc_share`: make a shared link. */
  share: boolean;
  /** `doc_open_in_source`: open the item where it came from. */
  openInSource: boolean;
  /** `doc_delete`: delete the user's own uploads; shown unless false (hidden on the tags and bookmarks views). */
  delete?: boolean;
  /** `doc_sentiment_analysis`: show a positive or negative tone on the card. */
  sentiment?: boolean;
}

/** Actions shown before the flags are known: those every card always had, not Share. */
export const DEFAULT_DOCUMENT_FLAGS: DocumentFlags = { share: false, openInSource: true, delete: true };

/** Returns which flag-gated document actions to show. */
export function useDocumentFlags(): DocumentFlags {
  const features = useQuery(featureQueries.config()).data?.features;
  if (!features) return DEFAULT_DOCUMENT_FLAGS;
  return {
    share: features.doc_share === true,
    openInSource: features.doc_open_in_source !== false,
    delete: features.doc_delete !== false,
    sentiment: features.doc_sentiment_analysis === true,
  };
}
