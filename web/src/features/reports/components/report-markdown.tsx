import { memo, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { useLocation, useNavigate } from 'react-router';
import remarkGfm from 'remark-gfm';
import { citationNumberOf, linkCitations } from '../../../lib/citation-marks';
import { carryOverlayParams } from '../../../lib/overlay/overlay-params';
import { citationPath, type ReportCitation } from '../report-links';

const isHttp = (href: string | undefined): href is string => Boolean(href && /^https?:\/\//i.test(href));

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

function componentsFor(citations: readonly ReportCitation[]): Components {
  const byNumber = new Map(citations.map((c) => [c.number, c]));
  return {
    a: ({ href, children }) => {
      const n = citationNumberOf(href);
      if (n !== null) {
        const citation = byNumber.get(n);
        return citation ? <CitationButton citation={citation} /> : <sup>[{n}]</sup>;
      }
      if (isHttp(href)) {
        return (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        );
      }
      return <span>{children}</span>;
    },
    img: ({ alt }) => (alt ? <span>{alt}</span> : null),
  };
}

/**
 * The report's markdown (headings, lists, tables) with its citation marks as buttons that open
 * the cited passage. Raw HTML is dropped, never rendered.
 */
export const ReportMarkdown = memo(function ReportMarkdown({ text, citations }: { text: string; citations: readonly ReportCitation[] }): ReactNode {
  return (
    <div className="answer-markdown report-markdown">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={componentsFor(citations)}>
        {linkCitations(text)}
      </Markdown>
    </div>
  );
});
