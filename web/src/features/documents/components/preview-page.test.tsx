import { screen, within } from '@testing-library/react';
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

describe('detailTags', () => {
  it("orders the spec's detail tags first and labels the rest from their keys", () => {
    expect(detailTags({ zeta: '1', price: '10', title: 'T', source_label: 'hidden' })).toEqual([
      { key: 'title', label: 'Title', value: 'T' },
      { key: 'price', label: 'Price', value: '10' },
      { key: 'zeta', label: 'Zeta', value: '1' },
    ]);
  });
});
