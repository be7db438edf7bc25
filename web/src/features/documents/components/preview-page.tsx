import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatRelative } from '../../../lib/format';
import { documentQueries, type DocumentCard } from '../api/document-api';
import { documentDate, fileInfo, isPdf, sourceLabel } from '../document-display';
import { useIsRead, useToggleRead } from '../hooks/use-read-state';
import { useSourceLabels } from '../hooks/use-source-labels';
import { FileActions } from './file-actions';
import { FileFacts } from './file-facts';
import { MetadataChips } from './metadata-chips';
import { ReadToggle } from './read-toggle';

/** PDF pages load with pdf.js, on demand: most previews never need them. */
const PdfPreview = lazy(() => import('./pdf-preview').then((m) => ({ default: m.PdfPreview })));

/**
 * /preview/{category}/{deeplink}?source=…: one document in full. The card that linked here is
 * shown at once (navigation state) while the document itself loads. An uploaded PDF shows its
 * pages (and the passage the address names); other documents, or a PDF that cannot be drawn,
 * show their text.
 */
export function PreviewPage() {
  const { deeplink = '' } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const fromCard = (location.state as { document?: DocumentCard } | null)?.document;
  const source = params.get('source') ?? fromCard?.source ?? '';
  const query = useQuery({
    ...documentQueries.detail(deeplink, source),
    enabled: Boolean(source && deeplink),
    placeholderData: fromCard?.deeplink === deeplink ? { results: [fromCard] } : undefined,
  });
  const isRead = useIsRead();
  const toggleRead = useToggleRead();
  const sourceLabels = useSourceLabels();

  if (!source) return <EmptyState title="This document cannot be found">{backLink}</EmptyState>;
  if (query.isPending) return <Spinner label="Loading document" />;
  const doc = query.data;
  if (query.isError || !doc) {
    return <EmptyState title="This document could not be loaded">{backLink}</EmptyState>;
  }
  const read = isRead(doc);
  const date = documentDate(doc);
  const file = fileInfo(doc);
  const text = doc.summary && <p className="preview-summary">{doc.summary.replace(/<[^>]*>/g, ' ')}</p>;
  // Back where the reader came from, or to My Data when the preview was opened directly.
  const leave = () => (location.key === 'default' ? navigate('/feeds/home', { replace: true }) : navigate(-1));

  return (
    <article className={`card stack preview${file && isPdf(doc) ? ' preview-wide' : ' page-narrow'}`} aria-labelledby="preview-title" data-read={read}>
      <h2 id="preview-title" className="preview-title">
        {doc.title}
      </h2>
      <p className="small muted doc-card-meta">
        <span>{sourceLabel(doc, sourceLabels)}</span>
        {doc.author && <span>{doc.author}</span>}
        <time dateTime={date}>
          {formatDate(date)} · {formatRelative(date)}
        </time>
      </p>
      {file && <FileFacts file={file} />}
      <MetadataChips metadata={doc.metadata} />
      <div className="doc-card-actions">
        <ReadToggle read={read} subject={doc.title} onToggle={() => toggleRead.mutate({ deeplink: doc.deeplink, read: !read })} />
        {file && <FileActions doc={doc} file={file} onDeleted={leave} />}
        {doc.link && (
          <a className="button button-quiet" href={doc.link} target="_blank" rel="noopener noreferrer">
            Open in source<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        )}
      </div>
      {file && isPdf(doc) ? (
        <Suspense fallback={<Spinner label="Loading PDF" />}>
          <PdfPreview doc={doc} fallback={text} />
        </Suspense>
      ) : (
        text
      )}
    </article>
  );
}

const backLink = (
  <p>
    <Link to="/feeds/home">Back to My Data</Link>
  </p>
);
