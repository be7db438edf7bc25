import { screen, waitFor } from '@testing-library/react';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { PdfDocument, PdfLoader } from '../pdf/pdf-loader';
import { PdfPreview } from './pdf-preview';

const doc = { deeplink: 'needldrive/u1:r', source: 'needldrive', title: 'Annual report' };
const fileRoute = 'GET /api/doc/needldrive/file?deeplink=needldrive%2Fu1%3Ar';
const layoutRoute = 'GET /api/doc/needldrive/layout?deeplink=needldrive%2Fu1%3Ar';

/** A two-page PDF of 600 × 800 points whose pages draw at once. */
function fakeLoader(render = vi.fn(() => ({ promise: Promise.resolve(), cancel: vi.fn() }))) {
  const pdf: PdfDocument = {
    numPages: 2,
    getPage: async () => ({ width: 600, height: 800, render }),
    destroy: vi.fn(async () => {}),
  };
  const loader: PdfLoader = vi.fn(async () => pdf);
  return { loader, pdf, render };
}

const pdfFile = () => new Response('%PDF-1.4', { status: 200, headers: { 'content-type': 'application/pdf' } });

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});

describe('PdfPreview', () => {
  it("draws every page of the document's file", async () => {
    stubApi({ [fileRoute]: pdfFile });
    const { loader, render } = fakeLoader();
    renderWithProviders(<PdfPreview doc={doc} fallback={<p>the text</p>} loader={loader} />, { route: '/preview/apps/x' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading PDF');
    const pages = await screen.findAllByRole('group', { name: /^Page \d of 2$/ });
    expect(pages).toHaveLength(2);
    await waitFor(() => expect(render).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(pages[0]).toHaveAttribute('data-state', 'drawn'));
    expect(screen.queryByTestId('pdf-highlight')).not.toBeInTheDocument();
  });

  it('marks the box the address names on its page and scrolls to it', async () => {
    stubApi({ [fileRoute]: pdfFile });
    renderWithProviders(<PdfPreview doc={doc} fallback={null} loader={fakeLoader().loader} />, {
      route: '/preview/apps/x?page=2&bbox=60,200,300,400',
    });
    const mark = await screen.findByTestId('pdf-highlight');
    expect(mark.closest('[data-page]')).toHaveAttribute('data-page', '2');
    expect(mark).toHaveStyle({ left: '10%', top: '25%', width: '40%', height: '25%' });
    await waitFor(() => expect(Element.prototype.scrollIntoView).toHaveBeenCalled());
  });

  it('opens at the page the address names when it gives no box, marking nothing', async () => {
    const calls = stubApi({ [fileRoute]: pdfFile });
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    renderWithProviders(<PdfPreview doc={doc} fallback={null} loader={fakeLoader().loader} />, { route: '/preview/apps/x?page=2' });
    await waitFor(() => expect(scrolled).toHaveLength(1));
    expect(scrolled[0]).toHaveAttribute('data-page', '2');
    expect(screen.queryByTestId('pdf-highlight')).not.toBeInTheDocument();
    expect(calls.map((c) => c.key)).not.toContain(layoutRoute);
  });

  it('finds highlight text in the layout when the address gives no box', async () => {
    const calls = stubApi({
      [fileRoute]: pdfFile,
      [layoutRoute]: () =>
        json(200, {
          pages: [
            { number: 1, width: 600, height: 800, blocks: [{ text: 'Intro', bbox: [0, 0, 60, 80] }] },
            { number: 2, width: 600, height: 800, blocks: [{ text: 'Exports led growth', bbox: [60, 200, 300, 400] }] },
          ],
        }),
    });
    renderWithProviders(<PdfPreview doc={doc} fallback={null} loader={fakeLoader().loader} />, {
      route: '/preview/apps/x?highlight=exports%20led',
    });
    const mark = await screen.findByTestId('pdf-highlight');
    expect(mark.closest('[data-page]')).toHaveAttribute('data-page', '2');
    expect(calls.map((c) => c.key)).toContain(layoutRoute);
  });

  it('falls back to the text when pdf.js cannot open the file', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({ [fileRoute]: pdfFile });
    const loader: PdfLoader = vi.fn().mockRejectedValue(new Error('Invalid PDF structure'));
    renderWithProviders(<PdfPreview doc={doc} fallback={<p>the text</p>} loader={loader} />, { route: '/preview/apps/x' });
    expect(await screen.findByText('the text')).toBeInTheDocument();
    expect(screen.getByText(/could not be shown/)).toBeInTheDocument();
  });

  it('falls back to the text when the file cannot be fetched', async () => {
    stubApi({ [fileRoute]: () => json(404, { code: 'not_found', message: 'this document has no stored file' }) });
    renderWithProviders(<PdfPreview doc={doc} fallback={<p>the text</p>} loader={fakeLoader().loader} />, { route: '/preview/apps/x' });
    expect(await screen.findByText('the text')).toBeInTheDocument();
  });
});
