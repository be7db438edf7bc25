import { useMemo } from 'react';
import { parseHighlight } from '../highlight-html';

/**
 * A highlight from the server, its matched words in `<em>`. Built from text runs (see
 * `highlight-html.ts`), never by handing the server's HTML to the DOM.
 */
export function HighlightText({ html }: { html: string }) {
  const runs = useMemo(() => parseHighlight(html), [html]);
  return (
    <>
      {runs.map((run, i) =>
        run.em ? (
          <em key={i} className="search-match">
            {run.text}
          </em>
        ) : (
          <span key={i}>{run.text}</span>
        ),
      )}
    </>
  );
}
