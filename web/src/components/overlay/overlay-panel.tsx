import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { OVERLAY_SIZE_PX, type OverlaySize, type OverlayWidth } from '../../lib/overlay/overlay-registry';
import { PanelRightCloseIcon, XIcon } from '../ui/icons';
import { closesOverlayOnEscape } from './overlay-escape';

export interface OverlayPanelProps {
  title: string;
  size: OverlaySize;
  width: OverlayWidth;
  /** A close button (×); without it the panel has a collapse control. Escape closes either. */
  closable?: boolean;
  /** Whether the page makes room for the panel: its width is set as `--overlay-docked` on the shell. */
  docked?: boolean;
  /** Covers the whole screen (below laptop width, for kinds that show there). */
  fullScreen?: boolean;
  onClose: () => void;
  /** Called with the new width, in percent of the screen, after each resize. */
  onWidthChange?: (percent: number) => void;
  children: ReactNode;
}

const clamp = (value: number, { min, max }: OverlayWidth) => Math.min(max, Math.max(min, value));
const KEYBOARD_STEP = 5;
/** The custom property that tells the page (and the floating Ask button) how wide a docked panel is. */
export const DOCKED_WIDTH_PROPERTY = '--overlay-docked';

/**
 * The right-side overlay panel: its width is a percentage of the screen within the kind's limits,
 * set by dragging or the arrow keys on the left edge, or switched between the limits by Expand.
 * Escape closes it (unless something inside or a dialog above takes the key first).
 */
export function OverlayPanel({ title, size, width, closable = true, docked = false, fullScreen = false, onClose, onWidthChange, children }: OverlayPanelProps) {
  const [percent, setPercent] = useState(() => clamp(width.start ?? width.min, width));
  const dragging = useRef(false);
  const panel = useRef<HTMLElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const resizable = width.min !== width.max && size !== 'small' && !fullScreen;

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (closesOverlayOnEscape(event, panel.current)) close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // Full screen, the panel is the page: focus starts in it, as it would on a page of its own.
  useEffect(() => {
    if (fullScreen && !panel.current?.contains(document.activeElement)) panel.current?.focus();
  }, [fullScreen]);

  useLayoutEffect(() => {
    const host = docked ? panel.current?.parentElement : null;
    if (!host) return;
    host.style.setProperty(DOCKED_WIDTH_PROPERTY, `${percent}vw`);
    return () => void host.style.removeProperty(DOCKED_WIDTH_PROPERTY);
  }, [docked, percent]);

  const resize = (next: number) => {
    const value = Math.round(clamp(next, width));
    setPercent(value);
    onWidthChange?.(value);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) resize(((window.innerWidth - event.clientX) / window.innerWidth) * 100);
  };
  const onPointerUp = () => {
    dragging.current = false;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowLeft') resize(percent + KEYBOARD_STEP);
    else if (event.key === 'ArrowRight') resize(percent - KEYBOARD_STEP);
    else return;
    event.preventDefault();
  };

  const expanded = percent >= width.max;
  const style = fullScreen
    ? undefined
    : size === 'small'
      ? { width: `${OVERLAY_SIZE_PX.small}px` }
      : { width: `${percent}vw`, maxWidth: size === 'variable' ? undefined : `${OVERLAY_SIZE_PX[size]}px` };

  return (
    <aside ref={panel} className="overlay-panel" aria-label={title} data-size={size} data-width={percent} data-docked={docked || undefined} data-full-screen={fullScreen || undefined} tabIndex={fullScreen ? -1 : undefined} style={style}>
      {resizable && (
        <div
          className="overlay-resize"
          role="separator"
          aria-orientation="vertical"
          aria-label="Resize overlay"
          aria-valuemin={width.min}
          aria-valuemax={width.max}
          aria-valuenow={percent}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onKeyDown={onKeyDown}
        />
      )}
      <div className="overlay-toolbar">
        <span className="overlay-title">{title}</span>
        {resizable && (
          <button type="button" className="button button-quiet" aria-pressed={expanded} onClick={() => resize(expanded ? width.min : width.max)}>
            {expanded ? 'Collapse' : 'Expand'}
          </button>
        )}
        {closable ? (
          <button type="button" className="icon-button" aria-label="Close overlay" title="Close (Esc)" onClick={onClose}>
            <XIcon size={20} />
          </button>
        ) : (
          <button type="button" className="icon-button" aria-label={`Hide ${title}`} title={`Hide ${title} (Esc)`} onClick={onClose}>
            <PanelRightCloseIcon size={20} />
          </button>
        )}
      </div>
      <div className="overlay-content">{children}</div>
    </aside>
  );
}
