import { useQuery } from '@tanstack/react-query';
import { matchPath, useLocation, useSearchParams } from 'react-router';
import { documentQueries, type DocumentCard } from '../api/document-api';
import { keysFromParams } from '../document-display';

/** Shown in place of a document's title while it loads; never its id. */
export const LOADING_TITLE = 'Loading…';
/** Shown when the document cannot be opened (the preview says why). */
const NO_TITLE = 'Document';

/**
 * Returns a name for the document id in a preview address (/preview/{category}/{deeplink}), so
 * the breadcrumbs show the document's title rather than its id. It reads the same query the
 * preview page loads (one request between them), and the card that linked there while it loads.
 */
export function useDocumentLabels(): Readonly<Record<string, string>> {
  const { pathname, state } = useLocation();
  const [params] = useSearchParams();
  const match = matchPath('/preview/:category/:deeplink', pathname);
  const deeplink = match && match.params.category !== 'needl_notebooks' ? (match.params.deeplink ?? '') : '';
  const fromCard = (state as { document?: DocumentCard } | null)?.document;
  const source = params.get('source') ?? fromCard?.source ?? '';
  const enabled = Boolean(deeplink && source);
  const query = useQuery({ ...documentQueries.detail(deeplink, source, keysFromParams(params)), enabled });
  if (!deeplink) return {};
  const title = query.data?.title ?? (fromCard?.deeplink === deeplink ? fromCard.title : undefined);
  return { [deeplink]: title || (enabled && query.isPending ? LOADING_TITLE : NO_TITLE) };
}
