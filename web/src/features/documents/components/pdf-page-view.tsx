import { useEffect, useRef, useState } from 'react';
import { boxStyle, type Box } from '../pdf/highlight';
import type { PdfDocument, PdfPage } from '../pdf/pdf-loader';

export interface PdfPageViewProps {
  pdf: PdfDocument;
  number: number;
  total: number;
  /** The shape to keep until the page is measured. */
  aspect: number;
  /** A passage to mark on this page, scrolled into view once drawn. */
  highlight: Box | null;
  /** Whether the preview opens at this page: drawn first, and scrolled to when it has no passage. */
  openAt?: boolean;
}

const cancelled = (error: unknown) => error instanceof Error && error.name === 'RenderingCancelledException';

/** Returns whether the element is near the viewport yet (always, without IntersectionObserver). */
function useNearViewport(ref: React.RefObject<HTMLElement | null>, eager: boolean) {
  const [near, setNear] = useState(eager || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: '600px 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref]);
  return near;
}

/** One page of a PDF, drawn when it comes near the viewport, with an optional marked passage. */
export function PdfPageView({ pdf, number, total, aspect, highlight, openAt = false }: PdfPageViewProps) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const mark = useRef<HTMLElement>(null);
  const near = useNearViewport(box, highlight !== null || openAt);
  const [page, setPage] = useState<PdfPage | null>(null);
  const [state, setState] = useState<'waiting' | 'drawn' | 'failed'>('waiting');

  useEffect(() => {
    if (!near) return;
    let live = true;
    pdf.getPage(number).then(
      (loaded) => live && setPage(loaded),
      () => live && setState('failed'),
    );
    return () => {
      live = false;
    };
  }, [near, pdf, number]);

  useEffect(() => {
    if (!page || !canvas.current || !box.current) return;
    const task = page.render(canvas.current, box.current.clientWidth || page.width);
    task.promise.then(
      () => setState('drawn'),
      (error: unknown) => {
        if (cancelled(error)) return;
        console.error(`page ${number} could not be drawn`, error);
        setState('failed');
      },
    );
    return () => task.cancel();
  }, [page, number]);

  useEffect(() => {
    if (state !== 'drawn') return;
    if (highlight) mark.current?.scrollIntoView({ block: 'center' });
    else if (openAt) box.current?.scrollIntoView({ block: 'start' });
  }, [state, highlight, openAt]);

  return (
    <div
      ref={box}
      className="pdf-page"
      role="group"
      aria-label={`Page ${number} of ${total}`}
      data-testid="pdf-page"
      data-page={number}
      data-state={state}
      style={{ aspectRatio: page ? `${page.width} / ${page.height}` : String(aspect) }}
    >
      <canvas ref={canvas} aria-hidden="true" />
      {state === 'failed' && <p className="pdf-page-error small">This page could not be shown.</p>}
      {highlight && page && (
        <mark ref={mark} className="pdf-highlight" data-testid="pdf-highlight" style={boxStyle(highlight, page.width, page.height)}>
          <span className="visually-hidden">Highlighted passage</span>
        </mark>
      )}
    </div>
  );
}
