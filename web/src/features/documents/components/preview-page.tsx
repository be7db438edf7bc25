import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useRef } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { documentQueries, type DocumentCard, type DocumentKeys } from '../api/document-api';
import { dateLine, documentDate, fileInfo, isPdf, keysFromParams, sourceLabel } from '../document-display';
import { useDocumentFlags } from '../hooks/use-document-flags';
import { useIsRead, useToggleRead } from '../hooks/use-read-state';
import { useSourceLabels } from '../hooks/use-source-labels';
import { CardDetails } from './card-details';
import { DocumentActions } from './document-actions';
import { FileFacts } from './file-facts';
import { MetadataChips } from './metadata-chips';

/** PDF pages load with pdf.js, on demand: most previews never need them. */
const PdfPreview = lazy(() => import('./pdf-preview').then((m) => ({ default: m.PdfPreview })));

/**
 * /preview/{category}/{deeplink}?source=…: one document in full. The keys the address carries
 * (a card's `access_key`, a shared link's `public_access_key`) open it; without a key that
 * grants it, the document "cannot be found". The card that linked here is shown at once
 * (navigation state) while the document itself loads. An uploaded PDF shows its pages (and the
 * passage the address names); other documents, or a PDF that cannot be drawn, show their text.
 * `at` names the document where the path does not (the full-page /document?deeplink=…).
 */
export function PreviewPage({ at }: { at?: { category?: string; deeplink: string } } = {}) {
  const path = useParams();
  const category = at ? at.category : path.category;
  const deeplink = (at ? at.deeplink : path.deeplink) ?? '';
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const fromCard = (location.state as { document?: DocumentCard } | null)?.document;
  const source = params.get('source') ?? fromCard?.source ?? '';
  const keys = keysFromParams(params);
  const query = useQuery({
    ...documentQueries.detail(deeplink, source, keys),
    enabled: Boolean(source && deeplink),
    placeholderData: fromCard?.deeplink === deeplink ? { results: [fromCard] } : undefined,
  });
  const isRead = useIsRead();
  const toggleRead = useToggleRead();
  const sourceLabels = useSourceLabels();
  const flags = useDocumentFlags();
  const region = useRef<HTMLElement>(null);

  if (!source) return <NotFound />;
  if (query.isPending) return <Spinner label="Loading document" />;
  const doc = query.data;
  if ((query.isError && isApiError(query.error) && query.error.status === 404) || (query.isSuccess && !doc)) {
    return <NotFound />;
  }
  if (query.isError || !doc) {
    return (
      <EmptyState title="This document could not be loaded">
        <p>
          <button type="button" className="button" onClick={() => void query.refetch()}>
            Try again
          </button>
        </p>
        {backLink}
      </EmptyState>
    );
  }
  const read = isRead(doc);
  const date = documentDate(doc);
  const file = fileInfo(doc);
  const text = doc.summary && <p className="preview-summary">{doc.summary.replace(/<[^>]*>/g, ' ')}</p>;
  // Back where the reader came from, or to My Data when the preview was opened directly.
  const leave = () => (location.key === 'default' ? navigate('/feeds/home', { replace: true }) : navigate(-1));

  return (
    <article
      ref={region}
      className={`card stack preview${file && isPdf(doc) ? ' preview-wide' : ' page-narrow'}`}
      aria-labelledby="preview-title"
      data-read={read}
    >
      <h2 id="preview-title" className="preview-title">
        {doc.title}
      </h2>
      <p className="small muted doc-card-meta">
        {!flags.hideSource && <span>{sourceLabel(doc, sourceLabels)}</span>}
        {doc.author && <span>{doc.author}</span>}
        <time dateTime={date}>{dateLine(date)}</time>
      </p>
      {file && <FileFacts file={file} />}
      <MetadataChips metadata={doc.metadata} />
      <CardDetails doc={doc} category={category} />
      <DocumentActions
        doc={doc}
        read={read}
        onToggleRead={() => toggleRead.mutate({ deeplink: doc.deeplink, read: !read })}
        file={file}
        category={category}
        flags={flags}
        keys={keys}
        onDeleted={leave}
        // The full page (/document) is the fallback, unless this is it.
        fullScreen={{ target: region, fallbackPath: at ? null : fullPagePath(doc, category, keys) }}
      />
      {file && isPdf(doc) ? (
        <Suspense fallback={<Spinner label="Loading PDF" />}>
          <PdfPreview doc={doc} fallback={text} keys={keys} />
        </Suspense>
      ) : (
        text
      )}
    </article>
  );
}

/** Returns the document's full page, bare of the app's navigation, opened with the same keys. */
function fullPagePath(doc: DocumentCard, category: string | undefined, keys: DocumentKeys): string {
  const params = new URLSearchParams({ deeplink: doc.deeplink, source: doc.source });
  if (category) params.set('category', category);
  if (keys.access_key) params.set('access_key', keys.access_key);
  if (keys.public_access_key) params.set('public_access_key', keys.public_access_key);
  return `/document?${params}`;
}

/** No such document, or none this address may open. */
function NotFound() {
  return (
    <EmptyState title="This document cannot be found">
      <p>It may have been deleted, or the link you followed does not give access to it.</p>
      {backLink}
    </EmptyState>
  );
}

const backLink = (
  <p>
    <Link to="/feeds/home">Back to My Data</Link>
  </p>
);
