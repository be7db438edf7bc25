import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { citationNumberOf, linkCitations } from './citation-marks';

const isHttp = (href: string | undefined): href is string => Boolean(href && /^https?:\/\//i.test(href));

/**
 * Returns the renderers of cited markdown: a citation mark `[n]` becomes what `citation(n)`
 * gives, a link is a link only when it is http or https (else its text), and images are never
 * loaded (their alt text shows).
 */
function componentsFor(citation: (n: number) => ReactNode): Components {
  return {
    a: ({ href, children }) => {
      const n = citationNumberOf(href);
      if (n !== null) return citation(n);
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
 * Markdown written with numbered citations (an answer, a report): headings, emphasis, lists and
 * tables, each citation mark rendered by `citation`. Raw HTML in the text is dropped, never
 * rendered, so text quoting a page's markup cannot run code or load anything.
 */
export function CitedMarkdown({
  text,
  className,
  citation,
}: {
  text: string;
  className: string;
  citation: (n: number) => ReactNode;
}): ReactNode {
  return (
    <div className={className}>
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={componentsFor(citation)}>
        {linkCitations(text)}
      </Markdown>
    </div>
  );
}
