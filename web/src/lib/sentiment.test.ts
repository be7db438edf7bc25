import { z } from 'zod';
import { sentimentField } from './sentiment';

const card = z.object({ title: z.string(), sentiment: sentimentField });

describe('the sentiment field', () => {
  it('keeps a tone the server sent', () => {
    expect(card.parse({ title: 'a', sentiment: { label: 'negative', score: -0.5 } }).sentiment).toEqual({ label: 'negative', score: -0.5 });
  });

  it('is absent from an older answer, and a malformed one is dropped without failing the card', () => {
    expect(card.parse({ title: 'a' }).sentiment).toBeUndefined();
    expect(card.parse({ title: 'a', sentiment: { label: 'mixed', score: 0 } }).sentiment).toBeNull();
    expect(card.parse({ title: 'a', sentiment: 'positive' }).sentiment).toBeNull();
  });
});
