import { screen, waitFor, within } from '@testing-library/react';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { detailTags } from '../document-display';
import { PreviewPage } from './preview-page';

const doc = {
  deeplink: 'doc_1',
  source: 'rss_1',
  link: 'https://example.com/a',
  title: 'Quarterly results',
  author: 'Ann',
  published_at: '2026-11-20T10:00:00Z',
  summary: 'Revenue grew.',
  metadata: { industry: 'Banking', isin: 'INE000000001', custom_note: 'x' },
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
};

describe('PreviewPage', () => {
  it('shows the document named by the address, with its detail tags and read state', async () => {
    const calls = stubApi({
      'GET /api/doc/rss_1?deeplink=doc_1': () => json(200, { results: [doc] }),
      'GET /api/doc/read_status': () => json(200, { results: ['doc_1'] }),
      'GET /api/source/rss': () => json(200, { results: [] }),
    });
    renderWithProviders(<PreviewPage />, { route: '/preview/feeds/doc_1?source=rss_1', path: '/preview/:category/:deeplink' });
    expect(await screen.findByRole('heading', { name: 'Quarterly results' })).toBeInTheDocument();
    const chips = within(screen.getByRole('list', { name: 'Details' })).getAllByRole('listitem');
    expect(chips.map((c) => c.textContent)).toEqual(['ISININE000000001', 'IndustryBanking', 'Custom notex']);
    expect(screen.getByText('Revenue grew.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open in source/ })).toHaveAttribute('href', 'https://example.com/a');
    expect(await screen.findByRole('button', { name: /^Read/, pressed: true })).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('GET /api/doc/rss_1?deeplink=doc_1');
  });
});

describe('PreviewPage keys', () => {
  const common = {
    'GET /api/doc/read_status': () => json(200, { results: [] }),
    'GET /api/source/rss': () => json(200, { results: [] }),
    'GET /api/feature/config': () => json(200, { features: { doc_share: true, doc_open_in_source: true } }),
  };
  const renderAt = (route: string) => renderWithProviders(<PreviewPage />, { route, path: '/preview/:category/:deeplink' });

  it("opens the document with a card's access key and offers to share it", async () => {
    const calls = stubApi({ ...common, 'GET /api/doc/rss_1?deeplink=doc_1&access_key=k1': () => json(200, { results: [doc] }) });
    renderAt('/preview/feeds/doc_1?source=rss_1&access_key=k1');
    expect(await screen.findByRole('heading', { name: 'Quarterly results' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Share Quarterly results' })).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('GET /api/doc/rss_1?deeplink=doc_1&access_key=k1');
  });

  it("opens a shared link's document with its public access key", async () => {
    stubApi({
      ...common,
      'GET /api/doc/rss_1?deeplink=doc_1&public_access_key=p1': () => json(200, { results: [{ ...doc, owned: false }] }),
    });
    renderAt('/preview/feeds/doc_1?source=rss_1&public_access_key=p1');
    expect(await screen.findByRole('heading', { name: 'Quarterly results' })).toBeInTheDocument();
  });

  it('says the document cannot be found when the server does not give it, without a toast', async () => {
    stubApi({
      ...common,
      'GET /api/doc/rss_1?deeplink=doc_1': () => json(404, { code: 'not_found', message: 'document not found' }),
    });
    renderAt('/preview/feeds/doc_1?source=rss_1');
    expect(await screen.findByRole('heading', { name: 'This document cannot be found' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Data' })).toHaveAttribute('href', '/feeds/home');
  });

  it('hides Share and open in source when their flags are off', async () => {
    stubApi({
      ...common,
      'GET /api/feature/config': () => json(200, { features: { doc_share: false, doc_open_in_source: false } }),
      'GET /api/doc/rss_1?deeplink=doc_1': () => json(200, { results: [doc] }),
    });
    renderAt('/preview/feeds/doc_1?source=rss_1');
    expect(await screen.findByRole('heading', { name: 'Quarterly results' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: /Open in source/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /^Share/ })).not.toBeInTheDocument();
  });
});

describe('detailTags', () => {
  it("orders the spec's detail tags first and labels the rest from their keys", () => {
    expect(detailTags({ zeta: '1', price: '10', title: 'T', source_label: 'hidden' })).toEqual([
      { key: 'title', label: 'Title', value: 'T' },
      { key: 'price', label: 'Price', value: '10' },
      { key: 'zeta', label: 'Zeta', value: '1' },
    ]);
  });
});
