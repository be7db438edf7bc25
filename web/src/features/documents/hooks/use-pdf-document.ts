import { useEffect, useState } from 'react';
import type { PdfDocument, PdfLoader } from '../pdf/pdf-loader';

export interface OpenedPdf {
  document: PdfDocument | null;
  /** Width over height of the first page: the shape of pages not measured yet. */
  aspect: number;
  failed: boolean;
}

const A4 = 595 / 842;

/** Opens the PDF in `blob` with `loader` and closes it when the blob changes or the page goes. */
export function usePdfDocument(blob: Blob | undefined, loader: PdfLoader): OpenedPdf {
  const [opened, setOpened] = useState<OpenedPdf>({ document: null, aspect: A4, failed: false });

  useEffect(() => {
    if (!blob) return;
    let live = true;
    let loaded: PdfDocument | null = null;
    (async () => {
      try {
        const pdf = await loader(await blob.arrayBuffer());
        loaded = pdf;
        if (!live) return void pdf.destroy();
        const first = await pdf.getPage(1);
        if (live) setOpened({ document: pdf, aspect: first.width / first.height, failed: false });
      } catch (error) {
        console.error('the PDF could not be opened', error);
        if (live) setOpened({ document: null, aspect: A4, failed: true });
      }
    })();
    return () => {
      live = false;
      void loaded?.destroy();
    };
  }, [blob, loader]);

  return opened;
}
