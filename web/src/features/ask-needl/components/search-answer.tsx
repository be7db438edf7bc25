import { Link, useLocation } from 'react-router';
import { citationDate, citationSnippets, citationTarget, type SnippetRun } from '../citations';
import { highlightRuns } from '../highlight-runs';
import { NO_SEARCH_RESULTS } from '../messages';
import type { AnswerData, Citation } from '../types';

/** Returns a result's passages: its highlights (search mode), else the words around its highlight. */
const passages = (doc: Citation): SnippetRun[][] =>
  doc.highlights?.length ? doc.highlights.map(highlightRuns) : citationSnippets(doc.context, doc.highlight_indexes);

/** Returns the first passage of each document, in the answer's order. */
function byDocument(citations: readonly Citation[]): Citation[] {
  const seen = new Set<string>();
  return citations.filter((c) => {
    const key = c.document_id || c.url || String(c.id);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A search-mode answer: the matching documents as cards, each with its passage's highlighted
 * words (text only, never HTML), opening the document's preview at the passage.
 */
export function SearchAnswer({ data }: { data: AnswerData }) {
  const location = useLocation();
  const documents = byDocument(data.retrieved_results);
  if (documents.length === 0) return <p className="muted">{NO_SEARCH_RESULTS}</p>;
  return (
    <ul className="ask-search-results" aria-label="Matching documents">
      {documents.map((doc) => {
        const target = citationTarget(doc, `${location.pathname}${location.search}`);
        const date = citationDate(doc.unix);
        const title = doc.title_label || doc.source_label;
        return (
          <li key={doc.document_id || doc.url || doc.id} className="card ask-search-card" data-testid="ask-search-result">
            <h4 className="ask-search-title">
              {target?.kind === 'preview' ? (
                <Link to={target.to}>{title}</Link>
              ) : target?.kind === 'external' ? (
                <a href={target.href} target="_blank" rel="noopener noreferrer">
                  {title}
                </a>
              ) : (
                title
              )}
            </h4>
            <p className="small muted">
              {doc.source_label}
              {date && <> · {date}</>}
            </p>
            {passages(doc).map((runs, i) => (
              <p key={i} className="ask-search-highlight">
                {runs.map((run, j) => (run.mark ? <mark key={j}>{run.text}</mark> : <span key={j}>{run.text}</span>))}
              </p>
            ))}
          </li>
        );
      })}
    </ul>
  );
}
