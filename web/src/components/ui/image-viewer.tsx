import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { XIcon } from './icons';

/** The zoom steps, as a share of the image's own size. */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4] as const;

/** How the image is sized: to fit the screen, or at a zoom step. */
type Zoom = 'fit' | number;

export interface ImageViewerProps {
  /** An address the page may show (the caller checks where it comes from). */
  src: string;
  alt: string;
  /** Leaves the viewer: its Close button and Escape. */
  onClose: () => void;
}

/** Returns the zoom step `by` steps from the current one (from fit, the step nearest the fitted size). */
function stepFrom(zoom: Zoom, fitted: number, by: 1 | -1): number {
  const current = zoom === 'fit' ? fitted : zoom;
  const steps = by > 0 ? ZOOM_STEPS.filter((s) => s > current + 1e-6) : ZOOM_STEPS.filter((s) => s < current - 1e-6).reverse();
  return steps[0] ?? (by > 0 ? ZOOM_STEPS[ZOOM_STEPS.length - 1] : ZOOM_STEPS[0]);
}

/**
 * One image, fitted to the screen at first, zoomed with the toolbar or the keyboard (+ and −,
 * 0 for the actual size, F to fit) and scrolled with the arrow keys once larger than the screen;
 * Close or Escape leaves it.
 */
export function ImageViewer({ src, alt, onClose }: ImageViewerProps) {
  const stage = useRef<HTMLDivElement>(null);
  const image = useRef<HTMLImageElement>(null);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [naturalWidth, setNaturalWidth] = useState<number | null>(null);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  useEffect(() => stage.current?.focus({ preventScroll: true }), []);

  /** Zooms a step in or out; from fit, from the size the image is drawn at now. */
  const zoomBy = (by: 1 | -1) => {
    const fitted = naturalWidth && image.current ? image.current.clientWidth / naturalWidth : 1;
    setZoom((current) => stepFrom(current, fitted, by));
  };
  const atMost = zoom !== 'fit' && zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1];
  const atLeast = zoom !== 'fit' && zoom <= ZOOM_STEPS[0];

  const onStageKey = (event: KeyboardEvent) => {
    const act: Record<string, () => void> = {
      '+': () => zoomBy(1),
      '=': () => zoomBy(1),
      '-': () => zoomBy(-1),
      '0': () => setZoom(1),
      f: () => setZoom('fit'),
    };
    const action = act[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action();
  };

  const size = zoom === 'fit' || !naturalWidth ? undefined : { width: naturalWidth * zoom, maxWidth: 'none', maxHeight: 'none' };
  return (
    <figure className="image-viewer" data-zoom={zoom}>
      <div className="image-viewer-tools" role="toolbar" aria-label="Image">
        <button type="button" className="button button-quiet" onClick={() => zoomBy(-1)} disabled={atLeast} aria-label="Zoom out">
          −
        </button>
        <output className="image-viewer-zoom" aria-live="polite" aria-label="Zoom">
          {zoom === 'fit' ? 'Fit' : `${Math.round(zoom * 100)}%`}
        </output>
        <button type="button" className="button button-quiet" onClick={() => zoomBy(1)} disabled={atMost} aria-label="Zoom in">
          +
        </button>
        <button type="button" className="button button-quiet" onClick={() => setZoom('fit')} aria-pressed={zoom === 'fit'}>
          Fit to screen
        </button>
        <button type="button" className="button button-quiet" onClick={() => setZoom(1)} aria-pressed={zoom === 1}>
          Actual size
        </button>
        <button type="button" className="button button-quiet image-viewer-close" onClick={onClose}>
          <XIcon size={16} aria-hidden="true" /> Close
        </button>
      </div>
      <div
        ref={stage}
        className="image-viewer-stage"
        role="region"
        aria-label={`${alt}: + and − zoom, 0 shows the actual size, F fits, the arrow keys scroll`}
        tabIndex={0}
        onKeyDown={onStageKey}
      >
        <img
          ref={image}
          src={src}
          alt={alt}
          style={size}
          onLoad={(event) => setNaturalWidth(event.currentTarget.naturalWidth || null)}
        />
      </div>
    </figure>
  );
}
