import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * Draws a dialog opened from a card above the page rather than inside the card's box, and keeps
 * its clicks from reaching the card (React passes portal events up its tree, and a search result
 * opens its preview on any click).
 */
export function CardLayer({ children }: { children: ReactNode }) {
  return createPortal(
    <div className="card-layer" onClick={(event) => event.stopPropagation()}>
      {children}
    </div>,
    document.body,
  );
}
