import { useId } from 'react';
import { Link } from 'react-router';
import { SentimentBadge } from '../../../components/ui/sentiment-badge';
import type { DocumentCard as Doc } from '../api/document-api';
import { dateLine, documentDate, fileInfo, isWebsiteOrRss, previewPath, sourceLabel } from '../document-display';
import type { DocumentFlags } from '../hooks/use-document-flags';
import { cardPreview } from '../preview-text';
import { CardDetails } from './card-details';
import { DocumentActions } from './document-actions';
import { FileFacts } from './file-facts';

export interface DocumentCardProps {
  doc: Doc;
  read: boolean;
  onToggleRead: () => void;
  /** Names of followed sources by id. */
  sourceLabels?: ReadonlyMap<string, string>;
  /** The preview's category (`feeds`, `apps`, ...). */
  category?: string;
  /** Which flag-gated actions to show. */
  flags?: DocumentFlags;
  now?: Date;
}

/**
 * One document in a list: title (to the preview, with the card's access key), source (unless the
 * flag hides it), author, date, its tone (when the flag is on), a preview of its text and actions;
 * an uploaded file also shows its name and size.
 */
export function DocumentCard({ doc, read, onToggleRead, sourceLabels, category, flags, now }: DocumentCardProps) {
  const titleId = useId();
  const date = documentDate(doc);
  const file = fileInfo(doc);
  const whole = isWebsiteOrRss(doc);
  return (
    <article
      className={`doc-card card${read ? '' : ' doc-card-unread'}`}
      aria-labelledby={titleId}
      data-testid="document-card"
      data-read={read}
    >
      <h3 id={titleId} className="doc-card-title">
        {!read && <span className="unread-dot" role="img" aria-label="Unread" />}
        <Link to={previewPath(doc, category)} state={{ document: doc }}>
          {doc.title}
        </Link>
      </h3>
      <p className="doc-card-meta small muted">
        {!flags?.hideSource && <span className="doc-card-source">{sourceLabel(doc, sourceLabels)}</span>}
        {doc.author && <span>{doc.author}</span>}
        <time dateTime={date}>{dateLine(date, now)}</time>
        {doc.story && doc.story.size > 1 && (
          <span className="badge story-badge" title={doc.story.sources.join(', ')} data-testid="story-badge">
            +{doc.story.size - 1} {doc.story.size - 1 === 1 ? 'source' : 'sources'}
          </span>
        )}
        {flags?.sentiment && <SentimentBadge sentiment={doc.sentiment} />}
      </p>
      {file && <FileFacts file={file} />}
      {doc.summary && (
        <p className={`doc-card-summary${whole ? ' doc-card-summary-clamped' : ''}`}>{cardPreview(doc.summary, { whole })}</p>
      )}
      <CardDetails doc={doc} category={category} />
      <DocumentActions doc={doc} read={read} onToggleRead={onToggleRead} file={file} category={category} flags={flags} />
    </article>
  );
}
