/**
 * The one place that knows pdf.js. It is imported on demand, so the main bundle stays small;
 * its worker is a separate file Vite emits next to the app (a `?url` import), and its fonts,
 * character maps and decoders are copied under /pdfjs/ (see vite.config.ts), so previews work
 * with no network but the server's. Components see only the small `PdfDocument` shape, which
 * tests fake.
 */
import workerSrc from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

const ASSETS = `${import.meta.env.BASE_URL}pdfjs/`;

export interface RenderTask {
  promise: Promise<void>;
  cancel(): void;
}

export interface PdfPage {
  /** In PDF points at scale 1, rotation applied. */
  width: number;
  height: number;
  /** Draws the page into `canvas` `cssWidth` pixels wide, sharp on high-density screens. */
  render(canvas: HTMLCanvasElement, cssWidth: number): RenderTask;
}

export interface PdfDocument {
  numPages: number;
  getPage(number: number): Promise<PdfPage>;
  destroy(): Promise<void>;
}

/** Opens a PDF from its bytes. */
export type PdfLoader = (data: ArrayBuffer) => Promise<PdfDocument>;

export const loadPdf: PdfLoader = async (data) => {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerSrc;
  const task = pdfjs.getDocument({
    data: new Uint8Array(data),
    standardFontDataUrl: `${ASSETS}standard_fonts/`,
    cMapUrl: `${ASSETS}cmaps/`,
    cMapPacked: true,
    wasmUrl: `${ASSETS}wasm/`,
    iccUrl: `${ASSETS}iccs/`,
  });
  const pdf = await task.promise;
  return {
    numPages: pdf.numPages,
    getPage: async (number) => {
      const page = await pdf.getPage(number);
      const base = page.getViewport({ scale: 1 });
      return {
        width: base.width,
        height: base.height,
        render: (canvas, cssWidth) => {
          const ratio = window.devicePixelRatio || 1;
          const viewport = page.getViewport({ scale: (cssWidth / base.width) * ratio });
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          const render = page.render({ canvas, viewport });
          return { promise: render.promise, cancel: () => render.cancel() };
        },
      };
    },
    destroy: () => task.destroy(),
  };
};
