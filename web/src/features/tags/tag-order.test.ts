import { orderCardTags, splitTags, visibleTagCount } from './tag-order';

const tags = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, name: `${prefix}${i + 1}` }));
const ids = (list: Array<{ id: string }>) => list.map((t) => t.id);

describe('the tags a card shows', () => {
  it('leads with two shared and two user tags, then the rest of each', () => {
    const ordered = orderCardTags(tags('s', 4), tags('u', 3));
    expect(ids(ordered)).toEqual(['s1', 's2', 'u1', 'u2', 's3', 's4', 'u3']);
    expect(ordered.map((t) => t.kind)).toEqual(['shared', 'shared', 'user', 'user', 'shared', 'shared', 'user']);
  });

  it('fills with the other kind when one has fewer than two', () => {
    expect(ids(orderCardTags([], tags('u', 3)))).toEqual(['u1', 'u2', 'u3']);
    expect(ids(orderCardTags(tags('s', 1), tags('u', 4)))).toEqual(['s1', 'u1', 'u2', 'u3', 'u4']);
  });

  it('shows a tag that is both shared and the user’s once, as shared', () => {
    const both = { id: 't', name: 'Risk' };
    const ordered = orderCardTags([both], [both, { id: 'u', name: 'Macro' }]);
    expect(ordered).toEqual([
      { id: 't', name: 'Risk', kind: 'shared' },
      { id: 'u', name: 'Macro', kind: 'user' },
    ]);
  });

  it('shows five on desktop and one on mobile, the rest in the overflow', () => {
    const ordered = orderCardTags(tags('s', 3), tags('u', 4));
    const desktop = splitTags(ordered, visibleTagCount(false));
    expect(ids(desktop.shown)).toEqual(['s1', 's2', 'u1', 'u2', 's3']);
    expect(ids(desktop.overflow)).toEqual(['u3', 'u4']);
    const mobile = splitTags(ordered, visibleTagCount(true));
    expect(ids(mobile.shown)).toEqual(['s1']);
    expect(mobile.overflow).toHaveLength(6);
  });

  it('has no overflow when everything fits', () => {
    expect(splitTags(tags('u', 2), 5)).toEqual({ shown: tags('u', 2), overflow: [] });
    expect(splitTags([], 5)).toEqual({ shown: [], overflow: [] });
  });
});
