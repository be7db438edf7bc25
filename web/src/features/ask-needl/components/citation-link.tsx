import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { carryOverlayParams } from '../../../lib/overlay/overlay-params';
import { placePopover, type Placement } from '../../../lib/popover-place';
import { citationDate, citationSnippets, citationTarget } from '../citations';
import { NO_CONTENT } from '../messages';
import type { Citation } from '../types';

/** The popover closes this long after the pointer leaves (the spec's 200 ms). */
export const POPOVER_CLOSE_MS = 200;

/**
 * A citation mark `[n]` drawn as a button. Hovering or focusing it shows a popover with a few
 * words around the cited passage, its source and date; pressing it opens the cited document's
 * preview at the passage (an external source opens in a new tab). The overlay stays open.
 * The popover floats over everything and is kept inside the screen, wherever the mark sits.
 */
export function CitationLink({ citation }: { citation: Citation }) {
  const [open, setOpen] = useState(false);
  const closing = useRef<ReturnType<typeof setTimeout> | null>(null);
  const popoverId = useId();
  const mark = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLSpanElement>(null);
  const [placement, setPlacement] = useState<Placement | null>(null);
  const navigate = useNavigate();
  const location = useLocation();

  const cancelClose = () => {
    if (closing.current) clearTimeout(closing.current);
    closing.current = null;
  };
  const show = () => {
    cancelClose();
    setOpen(true);
  };
  const hideLater = () => {
    cancelClose();
    closing.current = setTimeout(() => setOpen(false), POPOVER_CLOSE_MS);
  };
  useEffect(() => cancelClose, []);

  // Measured before the first paint and again as the page scrolls or the window resizes.
  useLayoutEffect(() => {
    if (!open) {
      setPlacement(null);
      return;
    }
    const place = () => {
      if (!mark.current || !popover.current) return;
      const { width, height } = popover.current.getBoundingClientRect();
      setPlacement(placePopover(mark.current.getBoundingClientRect(), { width, height }, { width: window.innerWidth, height: window.innerHeight }));
    };
    place();
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open]);
  const popoverStyle: CSSProperties = placement ? { left: placement.left, top: placement.top } : { left: 0, top: 0, visibility: 'hidden' };

  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    const target = citationTarget(citation, `${location.pathname}${location.search}`);
    if (!target) return;
    if (target.kind === 'external') window.open(target.href, '_blank', 'noopener,noreferrer');
    else navigate(carryOverlayParams(target.to, location.search));
  };

  const snippets = citationSnippets(citation.context, citation.highlight_indexes);
  const date = citationDate(citation.unix);
  const label = citation.title_label || citation.source_label || `Source ${citation.id}`;

  return (
    <span className="citation" onMouseEnter={show} onMouseLeave={hideLater}>
      <button
        ref={mark}
        type="button"
        className="citation-mark"
        aria-label={`Source ${citation.id}: ${label}`}
        aria-describedby={open ? popoverId : undefined}
        data-testid="citation"
        onClick={onClick}
        onFocus={show}
        onBlur={hideLater}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            event.stopPropagation();
            setOpen(false);
          }
        }}
      >
        {citation.id}
      </button>
      {open && (
        <span
          ref={popover}
          id={popoverId}
          role="tooltip"
          className="citation-popover"
          data-testid="citation-popover"
          data-side={placement?.side}
          style={popoverStyle}
        >
          <span className="citation-popover-title">{label}</span>
          {snippets.length > 0 ? (
            snippets.map((runs, i) => (
              <span key={i} className="citation-popover-snippet">
                “
                {runs.map((run, j) => (run.mark ? <mark key={j}>{run.text}</mark> : <span key={j}>{run.text}</span>))}”
              </span>
            ))
          ) : (
            <span className="citation-popover-snippet muted">{NO_CONTENT}</span>
          )}
          <span className="citation-popover-meta small muted">
            <span>{citation.source_label}</span>
            {date && <span>{date}</span>}
          </span>
        </span>
      )}
    </span>
  );
}
