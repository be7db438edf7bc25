import { withBookmark, withoutDeletedTags, withoutDocument, withRenamedTag, withTag, withoutTags } from './tag-cache';

const index = { user_tags: [{ id: 't1', name: 'Risk' }], shared_tags: [{ id: 't1', name: 'Risk' }], bookmarked: false };

describe('cached tag edits', () => {
  it('bookmarks a copy and leaves the original for a revert', () => {
    const on = withBookmark(index, true);
    expect(on?.bookmarked).toBe(true);
    expect(index.bookmarked).toBe(false);
    expect(withBookmark(undefined, true)).toBeUndefined();
  });

  it('takes a document out of every page of a list', () => {
    const list = { pages: [{ results: [{ deeplink: 'a' }, { deeplink: 'b' }] }, { results: [{ deeplink: 'c' }] }], pageParams: [0, 1] };
    const without = withoutDocument(list, 'b');
    expect(without?.pages.map((p) => p.results.map((d) => d.deeplink))).toEqual([['a'], ['c']]);
    expect(list.pages[0].results).toHaveLength(2);
  });

  it('adds a new tag in name order and replaces a renamed one', () => {
    const tags = [
      { id: 'b', name: 'beta' },
      { id: 'd', name: 'Delta' },
    ];
    expect(withTag(tags, { id: 'c', name: 'Charlie' })?.map((t) => t.name)).toEqual(['beta', 'Charlie', 'Delta']);
    expect(withTag(tags, { id: 'd', name: 'alpha' })?.map((t) => t.id)).toEqual(['d', 'b']);
    expect(tags.map((t) => t.id)).toEqual(['b', 'd']);
    expect(withoutTags(tags, ['b'])).toEqual([{ id: 'd', name: 'Delta' }]);
  });

  it('renames a tag wherever a document shows it, and drops deleted ones', () => {
    const renamed = withRenamedTag(index, { id: 't1', name: 'Credit risk' });
    expect(renamed?.user_tags[0].name).toBe('Credit risk');
    expect(renamed?.shared_tags[0].name).toBe('Credit risk');
    expect(index.user_tags[0].name).toBe('Risk');
    expect(withoutDeletedTags(index, ['t1'])?.user_tags).toEqual([]);
  });
});
