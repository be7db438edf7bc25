import { insertMention, mentionedIds, mentionQueryAt, segmentsOf, suggestMembers } from './mentions';

const ada = { user_id: 'u1', username: 'ada' };
const adam = { user_id: 'u2', username: 'adam' };
const bob = { user_id: 'u3', username: 'bob_b' };

describe('mentions', () => {
  it('finds the @name being typed at the caret, only at a word start', () => {
    expect(mentionQueryAt('hi @ad', 6)).toEqual({ start: 3, query: 'ad' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('mail me@ad', 10)).toBeNull();
    expect(mentionQueryAt('hi @ada there', 13)).toBeNull();
  });

  it('puts the chosen name where the @ was typed and the caret after it', () => {
    const at = mentionQueryAt('hi @ad', 6)!;
    expect(insertMention('hi @ad', 6, at, 'adam')).toEqual({ text: 'hi @adam ', caret: 9 });
    const mid = mentionQueryAt('hi @a and more', 5)!;
    expect(insertMention('hi @a and more', 5, mid, 'ada').text).toBe('hi @ada and more');
  });

  it('suggests members whose names match, those starting with it first, never the user', () => {
    expect(suggestMembers([bob, adam, ada], 'ad', 'u9').map((m) => m.username)).toEqual(['adam', 'ada']);
    expect(suggestMembers([bob, ada], 'b', 'u3')).toEqual([]);
    expect(suggestMembers([ada, bob], '').length).toBe(2);
  });

  it('keeps only the chosen members whose whole @name is still in the text', () => {
    expect(mentionedIds('thanks @ada!', [ada, adam])).toEqual(['u1']);
    expect(mentionedIds('thanks @adam', [ada, adam])).toEqual(['u2']);
    expect(mentionedIds('nobody here', [ada])).toEqual([]);
    expect(mentionedIds('@ada and @ada', [ada, ada])).toEqual(['u1']);
  });

  it('cuts a saved comment into text and mentions', () => {
    const mentions = [{ mention_uuid: 'u2', mention_value: 'adam' }];
    expect(segmentsOf('hi @adam, look\nhere', mentions)).toEqual([
      { text: 'hi ' },
      { text: '@adam', mention: mentions[0] },
      { text: ', look\nhere' },
    ]);
    expect(segmentsOf('mail x@adam', mentions)).toEqual([{ text: 'mail x@adam' }]);
    expect(segmentsOf('plain', [])).toEqual([{ text: 'plain' }]);
  });
});
