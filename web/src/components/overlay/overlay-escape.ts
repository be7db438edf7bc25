/**
 * When Escape closes the overlay: not when something took the key already (a popover, the
 * search box, the question box stopping an answer), not under an open dialog, and not while the
 * user types in a field of the page behind the panel (Escape there belongs to that field).
 */
export function closesOverlayOnEscape(event: KeyboardEvent, panel: HTMLElement | null): boolean {
  if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return false;
  if (document.querySelector('[aria-modal="true"]')) return false;
  const target = event.target instanceof HTMLElement ? event.target : null;
  const inPanel = Boolean(target && panel?.contains(target));
  const typing = Boolean(target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)));
  return inPanel || !typing;
}
