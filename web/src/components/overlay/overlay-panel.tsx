import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { OVERLAY_SIZE_PX, type OverlaySize, type OverlayWidth } from '../../lib/overlay/overlay-registry';
import { XIcon } from '../ui/icons';

export interface OverlayPanelProps {
  title: string;
  size: OverlaySize;
  width: OverlayWidth;
  closable?: boolean;
  onClose: () => void;
  /** Called with the new width, in percent of the screen, after each resize. */
  onWidthChange?: (percent: number) => void;
  children: ReactNode;
}

const clamp = (value: number, { min, max }: OverlayWidth) => Math.min(max, Math.max(min, value));
const KEYBOARD_STEP = 5;

/**
 * The right-side overlay panel: its width is a percentage of the screen within the kind's limits,
 * set by dragging or the arrow keys on the left edge, or switched between the limits by Expand.
 */
export function OverlayPanel({ title, size, width, closable = true, onClose, onWidthChange, children }: OverlayPanelProps) {
  const [percent, setPercent] = useState(() => clamp(width.start ?? width.min, width));
  const dragging = useRef(false);
  const resizable = width.min !== width.max && size !== 'small';

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
  const style =
    size === 'small'
      ? { width: `${OVERLAY_SIZE_PX.small}px` }
      : { width: `${percent}vw`, maxWidth: size === 'variable' ? undefined : `${OVERLAY_SIZE_PX[size]}px` };

  return (
    <aside className="overlay-panel" aria-label={title} data-size={size} data-width={percent} style={style}>
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
        {closable && (
          <button type="button" className="icon-button" aria-label="Close overlay" onClick={onClose}>
            <XIcon size={20} />
          </button>
        )}
      </div>
      <div className="overlay-content">{children}</div>
    </aside>
  );
}
