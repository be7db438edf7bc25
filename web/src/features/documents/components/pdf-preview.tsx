import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { documentQueries, type DocumentCard, type DocumentKeys } from '../api/document-api';
import { usePdfDocument } from '../hooks/use-pdf-document';
import { usePdfHighlight } from '../hooks/use-pdf-highlight';
import { pageFromParams } from '../pdf/highlight';
import { loadPdf, type PdfLoader } from '../pdf/pdf-loader';
import { PdfPageView } from './pdf-page-view';

export interface PdfPreviewProps {
  doc: Pick<DocumentCard, 'deeplink' | 'source' | 'title'>;
  /** Shown when the PDF cannot be: the document's text. */
  fallback: ReactNode;
  /** Opens the PDF; tests pass a fake instead of pdf.js. */
  loader?: PdfLoader;
  /** The keys the document was opened with (a shared link's), for its file and layout. */
  keys?: DocumentKeys;
}

/**
 * An uploaded PDF's pages, drawn with pdf.js from the original file. When the address names a
 * passage (`page` and `bbox`, or `highlight` text), it is marked and scrolled into view; a `page`
 * alone (a search hit with no box) is scrolled to.
 */
export function PdfPreview({ doc, fallback, loader = loadPdf, keys }: PdfPreviewProps) {
  const file = useQuery(documentQueries.file(doc.deeplink, doc.source, keys));
  const pdf = usePdfDocument(file.data?.blob, loader);
  const highlight = usePdfHighlight(doc, keys);
  const [params] = useSearchParams();
  const openAt = highlight?.page ?? pageFromParams(params);

  if (file.isError || pdf.failed) {
    return (
      <div className="stack" data-testid="pdf-fallback">
        <p className="small muted" role="status">
          The PDF could not be shown, so here is its text.
        </p>
        {fallback}
      </div>
    );
  }
  const opened = pdf.document;
  if (!opened) return <Spinner label="Loading PDF" />;
  const pages = Array.from({ length: opened.numPages }, (_, i) => i + 1);
  return (
    <section className="pdf-pages" aria-label={`${doc.title} (PDF)`}>
      {pages.map((number) => (
        <PdfPageView
          key={number}
          pdf={opened}
          number={number}
          total={pages.length}
          aspect={pdf.aspect}
          highlight={highlight?.page === number ? highlight.bbox : null}
          openAt={openAt === number}
        />
      ))}
    </section>
  );
}
