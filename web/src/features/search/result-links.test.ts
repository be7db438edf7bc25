import type { SearchHit } from './api/search-api';
import { hitSourceLabel, isPdfHit, passageParams, previewCategory, resultHref } from './result-links';

const hit = (change: Partial<SearchHit> = {}): SearchHit => ({
  deeplink: 'needldrive/u1:f1',
  source: 'needldrive',
  source_label: 'Needl Drive',
  category_tab: 'drives',
  link: null,
  title: 'Quarterly review',
  author: null,
  published_at: null,
  ingested_at: '2026-11-20T10:00:00Z',
  summary: null,
  metadata: { mime_type: 'application/pdf', file_name: 'q.pdf' },
  read: false,
  owned: true,
  access_key: 'k1',
  score: 1,
  highlights: [{ html: 'Exports <em>led</em>', page: 2, boxes: [[72, 100, 300, 120], [60.456, 122, 250, 140]] }],
  ...change,
});

describe('opening a search hit', () => {
  it("opens a PDF's preview at the highlight's page, around all its boxes, with the hit's access key", () => {
    expect(resultHref(hit(), hit().highlights[0])).toBe(
      '/preview/apps/needldrive%2Fu1%3Af1?source=needldrive&access_key=k1&page=2&bbox=60.46%2C100%2C300%2C140',
    );
  });

  it('opens at the page alone when the highlight has no box, and plainly without a page', () => {
    expect(passageParams({ html: '', page: 3, boxes: [] })).toEqual({ page: '3' });
    expect(passageParams({ html: '', page: null, boxes: [[0, 0, 1, 1]] })).toEqual({});
    expect(passageParams(undefined)).toEqual({});
  });

  it('opens other documents under feeds, without a page', () => {
    const web = hit({ source: 'rss_1', deeplink: 'rss_1:a', metadata: {}, access_key: null });
    expect(resultHref(web, web.highlights[0])).toBe('/preview/feeds/rss_1%3Aa?source=rss_1');
    expect(previewCategory(web)).toBe('feeds');
  });

  it("opens a note in the note's own preview, not a document's", () => {
    const note = hit({ source: 'needl_notebooks', deeplink: 'n/1', metadata: { notebook_id: 'nb1' }, access_key: null });
    expect(resultHref(note, note.highlights[0])).toBe('/preview/needl_notebooks/n%2F1');
  });

  it('knows a PDF by its type, or by its file name when the type is missing', () => {
    expect(isPdfHit({ metadata: { mime_type: 'text/markdown', file_name: 'a.pdf' } })).toBe(false);
    expect(isPdfHit({ metadata: { original_file_name: 'A.PDF' } })).toBe(true);
    expect(isPdfHit({ metadata: {} })).toBe(false);
  });

  it("names the source by the server's label, else by its key", () => {
    expect(hitSourceLabel({ source: 'bse_filings', source_label: null })).toBe('Bse filings');
    expect(hitSourceLabel({ source: 'x', source_label: 'Example' })).toBe('Example');
  });
});
