import { QueryClient } from '@tanstack/react-query';
import { applyLiveEvent, keysInvalidatedBy } from './live-events';
import { channelKeys, commentKeys } from './queries/channel-keys';

describe('live events of groups and comments', () => {
  it('refreshes one document’s thread and count, and the comment pages, when a comment changes', () => {
    for (const type of ['CommentAdded', 'CommentEdited', 'CommentDeleted']) {
      expect(keysInvalidatedBy({ type, ids: ['c1/d1', 'c1', 'd1', 'm1'] })).toEqual([
        ['comments', 'document', 'c1', 'd1'],
        ['comments', 'page'],
      ]);
    }
  });

  it('refreshes a group’s documents and shared tags when a document is shared into it or taken out', () => {
    expect(keysInvalidatedBy({ type: 'DocumentShared', ids: ['c1/d1', 'c1', 'd1'] })).toEqual([
      channelKeys.items('c1'),
      channelKeys.tags('c1'),
    ]);
  });

  it('refreshes the group lists and the group when its members change', () => {
    expect(keysInvalidatedBy({ type: 'MemberAdded', ids: ['c1'] })).toEqual([
      ['channels', 'list'],
      ['channels', 'channel', 'c1'],
      ['documents', 'list', 'channel', 'c1'],
      ['comments', 'page'],
    ]);
    expect(keysInvalidatedBy({ type: 'ChannelRenamed', ids: ['dir'] })).toEqual([['channels'], ['comments', 'page']]);
  });

  it('refreshes a group’s shared tags when a document in it is tagged', () => {
    expect(keysInvalidatedBy({ type: 'DocumentTagged', ids: ['channel:c1/d1', 'c1'] })).toEqual([
      ['tags', 'index', 'd1'],
      ['documents', 'list', 'tagged'],
      channelKeys.tags('c1'),
      channelKeys.items('c1'),
    ]);
  });

  it('leaves other documents’ threads alone when one gets a comment', async () => {
    const client = new QueryClient();
    client.setQueryData(commentKeys.thread('c1', 'd1'), []);
    client.setQueryData(commentKeys.thread('c1', 'd2'), []);
    client.setQueryData(commentKeys.count('c1', 'd1'), { count: 0, unseen: 0 });
    await applyLiveEvent(client, { cursor: '1', type: 'CommentAdded', ids: ['c1/d1', 'c1', 'd1', 'm1'] });
    expect(client.getQueryState(commentKeys.thread('c1', 'd1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(commentKeys.count('c1', 'd1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(commentKeys.thread('c1', 'd2'))?.isInvalidated).toBe(false);
  });

  it('refreshes the channel’s comment counts when the user saw a thread', () => {
    expect(keysInvalidatedBy({ type: 'CommentsSeen', ids: ['r1', 'c1'] })).toEqual([['comments', 'document', 'c1']]);
  });
});
