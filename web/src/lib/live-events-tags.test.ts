import { QueryClient } from '@tanstack/react-query';
import { applyLiveEvent, keysInvalidatedBy, taggedDeeplink } from './live-events';
import { documentKeys } from './queries/document-keys';
import { tagKeys } from './queries/tag-keys';

describe('live events of tags and bookmarks', () => {
  it('reads the deeplink out of a document-tags id, the user’s or a channel’s', () => {
    expect(taggedDeeplink('u1/doc-1')).toBe('doc-1');
    expect(taggedDeeplink('channel:c1/doc/with/slashes')).toBe('doc/with/slashes');
    expect(taggedDeeplink('no-slash')).toBeNull();
    expect(taggedDeeplink('u1/')).toBeNull();
    expect(taggedDeeplink(undefined)).toBeNull();
  });

  it('makes the document’s tags and the lists chosen by tag stale when it is tagged, untagged or bookmarked', () => {
    for (const type of ['DocumentTagged', 'DocumentUntagged']) {
      expect(keysInvalidatedBy({ type, ids: ['u1/d1'] })).toEqual([
        ['tags', 'index', 'd1'],
        ['documents', 'list', 'tagged'],
      ]);
    }
    expect(keysInvalidatedBy({ type: 'DocumentTagged', ids: [] })).toEqual([
      ['tags', 'index'],
      ['documents', 'list', 'tagged'],
    ]);
  });

  it('refreshes the user’s tags when one is made, and everything tag-shaped when one is renamed or deleted', () => {
    expect(keysInvalidatedBy({ type: 'TagCreated', ids: ['u1'] })).toEqual([['tags', 'user-tags']]);
    for (const type of ['TagRenamed', 'TagDeleted']) {
      expect(keysInvalidatedBy({ type, ids: ['u1'] })).toEqual([['tags'], ['documents', 'list', 'tagged']]);
    }
  });

  it('leaves other documents’ tags and the other document lists alone when one document is tagged', async () => {
    const client = new QueryClient();
    client.setQueryData(tagKeys.index('d1', null), { user_tags: [], shared_tags: [], bookmarked: false });
    client.setQueryData(tagKeys.index('d2', null), { user_tags: [], shared_tags: [], bookmarked: false });
    client.setQueryData(tagKeys.bookmarks(), { pages: [], pageParams: [] });
    client.setQueryData(documentKeys.list(null), { pages: [], pageParams: [] });
    await applyLiveEvent(client, { cursor: '9', type: 'DocumentTagged', ids: ['u1/d1'] });
    expect(client.getQueryState(tagKeys.index('d1', null))?.isInvalidated).toBe(true);
    expect(client.getQueryState(tagKeys.bookmarks())?.isInvalidated).toBe(true);
    expect(client.getQueryState(tagKeys.index('d2', null))?.isInvalidated).toBe(false);
    expect(client.getQueryState(documentKeys.list(null))?.isInvalidated).toBe(false);
  });
});
