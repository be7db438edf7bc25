import { cutPreview, emptyDocument, plainText, snippetDocument } from './note-text';

describe('plainText', () => {
  it('gives one line per block, in order, through headings, lists and quotes', () => {
    const doc = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Plan' }] },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] },
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'two' }] }] },
          ],
        },
        { type: 'blockquote', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'quoted' }] }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'see ' },
            { type: 'text', text: 'here', marks: [{ type: 'link', attrs: { href: 'https://x.example' } }] },
            { type: 'hardBreak' },
            { type: 'text', text: 'next' },
          ],
        },
        { type: 'paragraph' },
      ],
    };
    expect(plainText(doc)).toBe('Plan\none\ntwo\nquoted\nsee here\nnext');
  });

  it('gives nothing for an empty or missing body', () => {
    expect(plainText(emptyDocument())).toBe('');
    expect(plainText(null)).toBe('');
  });
});

describe('cutPreview', () => {
  it('keeps text of up to 1000 characters as it is', () => {
    expect(cutPreview('short')).toBe('short');
    expect(cutPreview('x'.repeat(1000))).toBe('x'.repeat(1000));
  });

  it('cuts longer text at 1000 characters and adds "..."', () => {
    expect(cutPreview('x'.repeat(1001))).toBe(`${'x'.repeat(1000)}...`);
  });

  it('counts characters, not UTF-16 units, as the server does', () => {
    const emoji = '😀'.repeat(1000);
    expect(cutPreview(emoji)).toBe(emoji);
    expect(cutPreview(`${emoji}é`)).toBe(`${emoji}...`);
  });
});

describe('snippetDocument', () => {
  it("quotes the card's summary and links to the original under its title", () => {
    expect(snippetDocument({ title: 'Q3 review', link: 'https://x.example/q3', quote: 'Revenue grew.\n\nCosts stayed flat.' })).toEqual({
      type: 'doc',
      content: [
        {
          type: 'blockquote',
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: 'Revenue grew.' }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Costs stayed flat.' }] },
          ],
        },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Source: ' },
            { type: 'text', text: 'Q3 review', marks: [{ type: 'link', attrs: { href: 'https://x.example/q3' } }] },
          ],
        },
      ],
    });
  });

  it('cuts a long quote at 1000 characters with "..."', () => {
    const doc = snippetDocument({ title: 't', link: '/preview/feeds/d1', quote: 'y'.repeat(1500) });
    expect(plainText(doc).split('\n')[0]).toBe(`${'y'.repeat(1000)}...`);
  });

  it('leaves the quote out when the card had no text', () => {
    const doc = snippetDocument({ title: 't', link: '/preview/feeds/d1', quote: '  ' });
    expect(doc.content?.map((node) => node.type)).toEqual(['paragraph']);
  });
});
