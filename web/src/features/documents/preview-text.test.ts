import { cardPreview, cutWords, plainText } from './preview-text';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ');

describe('cutWords', () => {
  it('keeps a text of 100 words or fewer whole', () => {
    expect(cutWords(words(100))).toBe(words(100));
    expect(cutWords('a short summary')).toBe('a short summary');
  });

  it('cuts a longer text at 100 words and marks the cut', () => {
    const cut = cutWords(words(101));
    expect(cut).toBe(`${words(100)}…`);
    expect(cut.split(' ')).toHaveLength(100);
  });

  it('drops markup and collapses whitespace', () => {
    expect(cutWords('<p>Hello\n\n  <b>world</b></p>')).toBe('Hello world');
  });

  it('returns an empty string for a missing summary', () => {
    expect(cutWords(null)).toBe('');
    expect(cutWords(undefined)).toBe('');
  });
});

describe('cardPreview', () => {
  it('cuts other text at 100 words but keeps website and RSS summaries whole', () => {
    expect(cardPreview(words(120), { whole: false })).toBe(`${words(100)}…`);
    expect(cardPreview(words(120), { whole: true })).toBe(words(120));
  });

  it('drops markup either way', () => {
    expect(cardPreview('<p>A <i>feed</i> summary</p>', { whole: true })).toBe('A feed summary');
    expect(plainText(null)).toBe('');
  });
});
