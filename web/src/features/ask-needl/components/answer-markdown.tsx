import { memo, type ReactNode } from 'react';
import { CitedMarkdown } from '../../../lib/cited-markdown';
import { findCitation } from '../citations';
import type { Citation } from '../types';
import { CitationLink } from './citation-link';

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
  // An unknown number is dropped; while the answer streams its sources are not known yet, so
  // the mark shows as text.
  const citation = (n: number) => {
    const found = findCitation(citations, n);
    if (found) return <CitationLink citation={found} />;
    return streaming ? <sup className="citation-pending">[{n}]</sup> : null;
  };
  return <CitedMarkdown className="answer-markdown" text={text} citation={citation} />;
});
