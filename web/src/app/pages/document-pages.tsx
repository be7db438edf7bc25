import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { documentAtUrl, sameOriginUrl } from '../../lib/app-paths';
import { documentFromParams, NOTES_SOURCE, notePreviewPath, previewPathOf, type DocumentAddress } from '../../lib/document-links';
import { carryOverlayParams } from '../../lib/overlay/overlay-params';
import { DocumentPreviewPage } from './preview-page';

/**
 * The preview's own parameters a document link may carry on: a passage to show (`page`, `bbox`,
 * `highlight`) and the group whose comments to read it with.
 */
const PREVIEW_EXTRAS = ['page', 'bbox', 'highlight', 'channel_id', 'comment_id', 'comments'] as const;

/** Returns the preview parameters `params` carries (see PREVIEW_EXTRAS). */
function extrasOf(params: URLSearchParams): Record<string, string> {
  return Object.fromEntries(PREVIEW_EXTRAS.flatMap((key) => (params.get(key) ? [[key, params.get(key) as string]] : [])));
}

/**
 * /redirect/document?deeplink=…&source=… (with a card's or a shared link's key, a category, a
 * passage): sends a document link on to the app's preview of that document
 * (/preview/{category}/{deeplink}, a note's own preview). The server opens a document only by
 * its deeplink and source, so a link without both says it is incomplete.
 */
export function RedirectDocumentPage() {
  const [params] = useSearchParams();
  const { search } = useLocation();
  const doc = documentFromParams(params);
  if (!doc) return <IncompleteLink />;
  return <Navigate to={carryOverlayParams(previewPathOf(doc, extrasOf(params)), search)} replace />;
}

/** Returns the /document parameters of a document, with the preview's extras kept from `keep`. */
function documentParams(doc: DocumentAddress, keep: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams({ deeplink: doc.deeplink, source: doc.source });
  for (const key of ['category', 'access_key', 'public_access_key'] as const) {
    const value = doc[key];
    if (value) params.set(key, value);
  }
  Object.entries(extrasOf(keep)).forEach(([key, value]) => params.set(key, value));
  return params;
}

/**
 * /document?deeplink=…&source=… (with the keys and category a preview takes): one document in
 * full, bare of the app's navigation, through the app's preview (an uploaded PDF's pages drawn
 * with pdf.js). `url=` may name it by one of the app's own addresses instead: its file
 * (`/api/doc/{source}/file?deeplink=…`) or its preview. Any other address, another site's above
 * all, is never fetched or framed: the page says it cannot open it and shows it as plain text.
 */
export function FullDocumentPage() {
  const [params] = useSearchParams();
  const url = params.get('url');
  if (url !== null) {
    const own = sameOriginUrl(url);
    const doc = own && documentAtUrl(own);
    if (!doc) return <NotOpened address={url} />;
    return <Navigate to={`/document?${documentParams(doc, params)}`} replace />;
  }
  const doc = documentFromParams(params);
  if (!doc) return <IncompleteLink />;
  if (doc.source === NOTES_SOURCE) return <Navigate to={notePreviewPath(doc.deeplink)} replace />;
  return <DocumentPreviewPage at={{ category: doc.category ?? 'feeds', deeplink: doc.deeplink }} />;
}

/** A document link without a deeplink and a source. */
function IncompleteLink() {
  return (
    <EmptyState title="This document link is incomplete">
      <p>It does not say which document to open. Ask whoever sent it for the full link.</p>
      <p>
        <Link to="/home">Go to Needl</Link>
      </p>
    </EmptyState>
  );
}

/** An address that is not the app's own: named, never opened. */
function NotOpened({ address }: { address: string }) {
  return (
    <EmptyState title="This address cannot be opened here">
      <p>Needl shows only its own documents on this page. The address was:</p>
      <p>
        <code className="address-text">{address}</code>
      </p>
      <p>
        <Link to="/home">Go to Needl</Link>
      </p>
    </EmptyState>
  );
}
