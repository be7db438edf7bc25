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
  /** `doc_summarization`: ask for a summary of the document and open it as a PDF. */
  summarize?: boolean;
  /** `doc_table_extraction`: list a PDF's tables and download them as CSV or Excel. */
  tables?: boolean;
  /** `doc_hide_source`: cards and the preview leave out the source's name. */
  hideSource?: boolean;
  /** `doc_full_screen_view`: the preview can fill the screen. */
  fullScreen?: boolean;
  /** `doc_open_in_new_tab`: open the document's preview in a new tab. */
  openInNewTab?: boolean;
}

/**
 * Actions shown before the flags are known: those every card always had, not Share, and none of
 * the newer ones (they appear once the flags say so rather than flashing and going away).
 */
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
    summarize: features.doc_summarization === true,
    tables: features.doc_table_extraction === true,
    hideSource: features.doc_hide_source === true,
    fullScreen: features.doc_full_screen_view !== false,
    openInNewTab: features.doc_open_in_new_tab !== false,
  };
}
