import { memo, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CitedMarkdown } from '../../../lib/cited-markdown';
import { carryOverlayParams } from '../../../lib/overlay/overlay-params';
import { citationPath, type ReportCitation } from '../report-links';

/** A citation mark `[n]` as a button that opens the cited passage; its title names the source. */
function CitationButton({ citation }: { citation: ReportCitation }) {
  const navigate = useNavigate();
  const location = useLocation();
  const label = `Source ${citation.number}: ${citation.title}${citation.page ? `, page ${citation.page}` : ''}`;
  return (
    <button
      type="button"
      className="citation-mark"
      aria-label={label}
      title={label}
      onClick={() => navigate(carryOverlayParams(citationPath(citation, `${location.pathname}${location.search}`), location.search))}
    >
      {citation.number}
    </button>
  );
}

/**
 * The report's markdown (headings, lists, tables) with its citation marks as buttons that open
 * the cited passage. Raw HTML is dropped, never rendered.
 */
export const ReportMarkdown = memo(function ReportMarkdown({ text, citations }: { text: string; citations: readonly ReportCitation[] }): ReactNode {
  const byNumber = new Map(citations.map((c) => [c.number, c]));
  const citation = (n: number) => {
    const found = byNumber.get(n);
    return found ? <CitationButton citation={found} /> : <sup>[{n}]</sup>;
  };
  return <CitedMarkdown className="answer-markdown report-markdown" text={text} citation={citation} />;
});
