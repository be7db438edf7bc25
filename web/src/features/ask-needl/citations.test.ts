import { describe, expect, it } from 'vitest';
import { citationDate, citationSnippets, citationTarget, linkCitations } from './citations';
import { citation } from './test/fixtures';


describe('citation marks', () => {
  it('become citation links, one per number, outside code', () => {
    expect(linkCitations('Grew [1]. Fell [2, 3]. Ranged [4-5]. Twice [[6]].')).toBe(
      'Grew [1](#cite-1). Fell [2](#cite-2)[3](#cite-3). Ranged [4](#cite-4)[5](#cite-5). Twice [6](#cite-6).',
    );
    expect(linkCitations('`a[1]` and [link](https://x.test) [see note]')).toBe('`a[1]` and [link](https://x.test) [see note]');
  });
});

describe('the citation popover text', () => {
  it('keeps about five words before and six after the highlight', () => {
    const runs = citationSnippets(citation().context, citation().highlight_indexes);
    expect(runs).toHaveLength(1);
    const text = runs[0].map((r) => r.text).join('');
    expect(runs[0].find((r) => r.mark)?.text).toBe('revenue grew by twelve percent');
    expect(text).toBe('…review the company said that revenue grew by twelve percent to a record high across all…');
  });

  it('shows the first words when nothing is highlighted, and nothing without a passage', () => {
    expect(citationSnippets('one two three', [])).toEqual([[{ text: 'one two three', mark: false }]]);
    expect(citationSnippets('', [[0, 2]])).toEqual([]);
  });

  it('dates in en-GB: day, short month, year', () => {
    expect(citationDate(1_709_596_800)).toBe('5 Mar 2024');
    expect(citationDate(null)).toBeNull();
  });
});

describe('where a citation leads', () => {
  it('opens the preview at the passage page and box, with the access key', () => {
    const target = citationTarget(citation(), '/feeds/home');
    expect(target?.kind).toBe('preview');
    const url = new URL(target && target.kind === 'preview' ? target.to : '', 'http://x');
    expect(url.pathname).toBe('/preview/apps/doc-1');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      source: 'needldrive',
      access_key: 'key-1',
      page: '3',
      bbox: '10,20,200,46',
      redirect: '/feeds/home',
    });
  });

  it("opens a cited note in the note's own preview", () => {
    const note = citation({ document_id: 'n1', source: 'needl_notebooks', access_key: null, category_tab: 'notes' });
    expect(citationTarget(note, '/notebooks')).toEqual({ kind: 'preview', to: '/preview/needl_notebooks/n1' });
  });

  it('opens an external source only when it is http(s)', () => {
    expect(citationTarget(citation({ document_id: '', url: 'https://news.test/a' }))).toEqual({ kind: 'external', href: 'https://news.test/a' });
    expect(citationTarget(citation({ document_id: '', url: 'javascript:alert(1)' }))).toBeNull();
  });
});
