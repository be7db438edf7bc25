/** Where a floating popover goes beside its anchor so all of it stays on the screen. */

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Placement {
  left: number;
  top: number;
  side: 'above' | 'below';
}

/** Space kept between the popover and the screen's edges, and between it and its anchor (px). */
export const SCREEN_MARGIN = 8;
export const ANCHOR_GAP = 6;

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, max));

/**
 * Returns the viewport position of a popover of `size` for `anchor`: centred over it, moved
 * sideways to stay inside the screen, above it when there is room, else below, else on the
 * side with more room, kept inside the screen.
 */
export function placePopover(anchor: Box, size: { width: number; height: number }, screen: { width: number; height: number }): Placement {
  const left = clamp(anchor.left + anchor.width / 2 - size.width / 2, SCREEN_MARGIN, Math.max(SCREEN_MARGIN, screen.width - size.width - SCREEN_MARGIN));
  const above = anchor.top - ANCHOR_GAP - size.height;
  const below = anchor.top + anchor.height + ANCHOR_GAP;
  const fitsAbove = above >= SCREEN_MARGIN;
  const fitsBelow = below + size.height <= screen.height - SCREEN_MARGIN;
  const side = fitsAbove || (!fitsBelow && anchor.top > screen.height - anchor.top - anchor.height) ? 'above' : 'below';
  const top = clamp(side === 'above' ? above : below, SCREEN_MARGIN, Math.max(SCREEN_MARGIN, screen.height - size.height - SCREEN_MARGIN));
  return { left, top, side };
}
