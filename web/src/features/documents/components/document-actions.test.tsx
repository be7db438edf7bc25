import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { DocumentCard as Doc } from '../api/document-api';
import type { DocumentFlags } from '../hooks/use-document-flags';
import { DocumentCard } from './document-card';
import { DocumentList } from './document-list';
import { PreviewPage } from './preview-page';

const upload = (overrides: Partial<Doc> = {}): Doc => ({
  deeplink: 'doc_1',
  source: 'needldrive',
  link: 'https://example.com/a',
  title: 'Quarterly results',
  author: null,
  published_at: '2026-11-20T10:00:00Z',
  summary: 'Revenue grew.',
  metadata: { mime_type: 'application/pdf', size: '2048', original_file_name: 'q3.pdf', source_label: 'Needl Drive' },
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
  owned: true,
  ...overrides,
});

const allOn = {
  doc_share: true,
  doc_open_in_source: true,
  doc_summarization: true,
  doc_table_extraction: true,
  doc_full_screen_view: true,
  doc_open_in_new_tab: true,
};

/** Shows where the app went. */
function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{pathname + search}</p>;
}

const previewAt = (features: Record<string, boolean>, doc: Doc = upload(), otherRoute?: ReactElement) => {
  stubApi({
    'GET /api/feature/config': () => json(200, { features }),
    [`GET /api/doc/${doc.source}?deeplink=${doc.deeplink}`]: () => json(200, { results: [doc] }),
    'GET /api/doc/read_status': () => json(200, { results: [] }),
    'GET /api/source/rss': () => json(200, { results: [] }),
    'GET /api/documents/summaries': () => json(200, { results: [] }),
  });
  renderWithProviders(
    <Routes>
      <Route path="/preview/:category/:deeplink" element={<PreviewPage />} />
      {otherRoute}
    </Routes>,
    { route: `/preview/apps/doc_1?source=${doc.source}` },
  );
};

const renderCard = (doc: Doc, flags: DocumentFlags = { share: false, openInSource: false }) =>
  renderWithProviders(<DocumentCard doc={doc} read={false} onToggleRead={() => {}} flags={flags} />, { route: '/apps/needldrive' });

/** Makes the screen phone-sized (or not) for `useMediaQuery`. */
const stubScreen = (phone: boolean) =>
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: phone && query.includes('max-width: 767px'), media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
  );

describe('the flag-gated document actions', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows Summarize, Extract tables, Open in new tab and Full screen in the preview when their flags are on', async () => {
    previewAt(allOn);
    expect(await screen.findByRole('heading', { name: 'Quarterly results' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Summarize Quarterly results' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Extract tables from Quarterly results' })).toBeInTheDocument();
    const newTab = screen.getByRole('link', { name: 'Open in new tab' });
    expect(newTab).toHaveAttribute('href', '/preview/apps/doc_1?source=needldrive');
    expect(newTab).toHaveAttribute('target', '_blank');
    expect(newTab).toHaveAttribute('rel', 'noopener');
    expect(screen.getByRole('button', { name: 'Full screen' })).toBeInTheDocument();
  });

  it('hides them when their flags are off, and asks for no summary', async () => {
    previewAt({ doc_share: true, doc_full_screen_view: false, doc_open_in_new_tab: false });
    expect(await screen.findByRole('button', { name: 'Share Quarterly results' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Summar/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Extract tables/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Open in new tab/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Full screen' })).not.toBeInTheDocument();
    const calls = vi.mocked(fetch).mock.calls.map(([url]) => String(url));
    expect(calls).not.toContain('/api/documents/summaries');
  });

  it('leaves the source out of the card when doc_hide_source is on', () => {
    const { unmount } = renderCard(upload());
    expect(within(screen.getByRole('article')).getByText('Needl Drive')).toBeInTheDocument();
    unmount();
    renderCard(upload(), { share: false, openInSource: false, hideSource: true });
    expect(within(screen.getByRole('article')).queryByText('Needl Drive')).not.toBeInTheDocument();
  });

  it('leaves the source out of the preview when doc_hide_source is on', async () => {
    previewAt({ doc_hide_source: true });
    expect(await screen.findByRole('heading', { name: 'Quarterly results' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Needl Drive')).not.toBeInTheDocument());
  });

  it('opens the full page where the browser cannot fill the screen', async () => {
    previewAt(allOn, upload(), <Route path="/document" element={<Where />} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Full screen' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/document?deeplink=doc_1&source=needldrive&category=apps');
  });

  it('fills the screen with the preview where the browser can', async () => {
    Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, value: true });
    const request = vi.fn(function (this: HTMLElement) {
      Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: this });
      document.dispatchEvent(new Event('fullscreenchange'));
      return Promise.resolve();
    });
    HTMLElement.prototype.requestFullscreen = request;
    try {
      previewAt(allOn);
      await userEvent.click(await screen.findByRole('button', { name: 'Full screen' }));
      expect(request.mock.contexts[0]).toBe(screen.getByRole('article', { name: 'Quarterly results' }));
      expect(await screen.findByRole('button', { name: 'Exit full screen' })).toBeInTheDocument();
    } finally {
      Reflect.deleteProperty(document, 'fullscreenEnabled');
      Reflect.deleteProperty(document, 'fullscreenElement');
      Reflect.deleteProperty(HTMLElement.prototype, 'requestFullscreen');
    }
  });
});

describe('Delete (spec §6)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows for the user's own upload on a wide screen", () => {
    renderCard(upload());
    expect(screen.getByRole('button', { name: 'Delete q3.pdf' })).toBeInTheDocument();
  });

  it('is hidden for a document of a connected app (mail)', () => {
    renderCard(upload({ source: 'email', metadata: { mime_type: 'message/rfc822', size: '900', original_file_name: 'Re: results.eml' } }));
    expect(screen.getByRole('button', { name: 'Download Re: results.eml' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('is hidden for website and RSS items', () => {
    renderCard(upload({ source: 'rss_1' }));
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('is hidden on a phone', () => {
    stubScreen(true);
    renderCard(upload());
    expect(screen.getByRole('button', { name: 'Download q3.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it("is hidden on a group's shared documents", () => {
    renderWithProviders(<DocumentCard doc={upload()} read={false} onToggleRead={() => {}} category="channels" />, { route: '/channels/c1' });
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it("is hidden on My Data's exchanges tab", async () => {
    stubApi({
      'GET /api/documents?page=0&limit=20&sub_category=exchanges': () => json(200, { results: [upload()], page: 0, has_more: false }),
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/source/rss': () => json(200, { results: [] }),
    });
    renderWithProviders(<DocumentList source={null} subCategory="exchanges" />, { route: '/feeds/home/exchanges' });
    const card = await screen.findByRole('article', { name: /Quarterly results/ });
    expect(within(card).getByRole('button', { name: 'Download q3.pdf' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });
});
