import { memo, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { citationNumberOf, findCitation, linkCitations } from '../citations';
import type { Citation } from '../types';
import { CitationLink } from './citation-link';

const isHttp = (href: string | undefined): href is string => Boolean(href && /^https?:\/\//i.test(href));

/**
 * Returns the renderers of an answer's markdown: citation marks become citation buttons (an
 * unknown number is dropped), a link is a link only when it is http or https (else its text),
 * and images are never loaded (their alt text shows).
 */
function componentsFor(citations: readonly Citation[], streaming: boolean): Components {
  return {
    a: ({ href, children }) => {
      const n = citationNumberOf(href);
      if (n !== null) {
        const citation = findCitation(citations, n);
        if (citation) return <CitationLink citation={citation} />;
        // While the answer streams its sources are not known yet: the mark shows as text.
        return streaming ? <sup className="citation-pending">[{n}]</sup> : null;
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
 * An answer's markdown (headings, emphasis, lists, tables) with its citation marks as buttons.
 * Raw HTML in the text is dropped, never rendered, so an answer quoting a page's markup cannot
 * run code or load anything.
 */
export const AnswerMarkdown = memo(function AnswerMarkdown({
  text,
  citations = [],
  streaming = false,
}: {
  text: string;
  citations?: readonly Citation[];
  streaming?: boolean;
}): ReactNode {
  return (
    <div className="answer-markdown">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={componentsFor(citations, streaming)}>
        {linkCitations(text)}
      </Markdown>
    </div>
  );
});
