import type { ReportDocument } from '../api/report-api';
import { fileHref, type ReportCitation } from '../report-links';

const STATUS_TEXT: Record<string, string> = { PROCESSING: 'Processing', FAILED: 'Failed' };

/** 'Files Added': each file a link that opens it in a new tab, with its status while not ready. */
export function FilesAdded({ documents, citations }: { documents: ReportDocument[]; citations: readonly ReportCitation[] }) {
  return (
    <section className="report-files" aria-labelledby="report-files-title">
      <h3 id="report-files-title" className="report-panel-title">
        Files Added
      </h3>
      {documents.length === 0 ? (
        <p className="small muted">No files: this report reads a feed.</p>
      ) : (
        <ul className="report-file-list">
          {documents.map((doc) => (
            <li key={doc.id ?? doc.metadata.guid} data-status={doc.status ?? undefined}>
              <a href={fileHref(doc, citations)} target="_blank" rel="noopener noreferrer" className="report-file-link">
                {doc.metadata.fileName}
              </a>
              {doc.status && STATUS_TEXT[doc.status] && <span className="small muted"> {STATUS_TEXT[doc.status]}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
