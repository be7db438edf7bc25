/**
 * jsdom does no layout, and ProseMirror asks for boxes when it scrolls the selection into view
 * (after a toolbar command takes focus). These give it empty boxes, as a hidden page would.
 */
const emptyRect = () => new DOMRect(0, 0, 0, 0);
const emptyRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;

export function stubEditorLayout(): void {
  Range.prototype.getBoundingClientRect ??= emptyRect;
  Range.prototype.getClientRects ??= emptyRects;
  document.elementFromPoint ??= () => null;
}
