import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { documentQueries, type DocumentCard, type DocumentKeys } from '../api/document-api';
import { findHighlight, highlightFromParams, type PdfHighlight } from '../pdf/highlight';

/**
 * Returns the passage the address asks to show: its page and box straight from `page` and
 * `bbox`, or found from `highlight` in the document's layout (fetched only then).
 */
export function usePdfHighlight(doc: Pick<DocumentCard, 'deeplink' | 'source'>, keys?: DocumentKeys): PdfHighlight | null {
  const [params] = useSearchParams();
  const direct = highlightFromParams(params);
  const text = direct ? '' : (params.get('highlight') ?? '').trim();
  const layout = useQuery({ ...documentQueries.layout(doc.deeplink, doc.source, keys), enabled: text !== '' });
  if (direct) return direct;
  return layout.data && text ? findHighlight(layout.data, text) : null;
}
