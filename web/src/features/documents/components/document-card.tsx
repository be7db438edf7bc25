import { useId } from 'react';
import { Link } from 'react-router';
import { formatDate, formatRelative } from '../../../lib/format';
import type { DocumentCard as Doc } from '../api/document-api';
import { documentDate, fileInfo, previewPath, sourceLabel } from '../document-display';
import { cutWords } from '../preview-text';
import { FileActions } from './file-actions';
import { FileFacts } from './file-facts';
import { ReadToggle } from './read-toggle';

export interface DocumentCardProps {
  doc: Doc;
  read: boolean;
  onToggleRead: () => void;
  /** Names of followed sources by id. */
  sourceLabels?: ReadonlyMap<string, string>;
  /** The preview's category (`feeds`, `apps`, ...). */
  category?: string;
  now?: Date;
}

/**
 * One document in a list: title (to the preview), source, author, date, summary and actions;
 * an uploaded file also shows its name and size, with Download and Delete.
 */
export function DocumentCard({ doc, read, onToggleRead, sourceLabels, category, now }: DocumentCardProps) {
  const titleId = useId();
  const date = documentDate(doc);
  const file = fileInfo(doc);
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
        <span className="doc-card-source">{sourceLabel(doc, sourceLabels)}</span>
        {doc.author && <span>{doc.author}</span>}
        <time dateTime={date} title={formatRelative(date, now)}>
          {formatDate(date)} · {formatRelative(date, now)}
        </time>
      </p>
      {file && <FileFacts file={file} />}
      {doc.summary && <p className="doc-card-summary">{cutWords(doc.summary)}</p>}
      <div className="doc-card-actions">
        <ReadToggle read={read} onToggle={onToggleRead} subject={doc.title} />
        {file && <FileActions doc={doc} file={file} />}
        {doc.link && (
          <a className="button button-quiet" href={doc.link} target="_blank" rel="noopener noreferrer">
            Open in source<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        )}
      </div>
    </article>
  );
}
