import { keysInvalidatedBy } from './live-events';
import { boardKeys } from './queries/board-keys';

describe('live events of custom feeds', () => {
  it.each(['BoardCreated', 'BoardRenamed', 'KeywordIncluded', 'SourcesFiltered', 'BoardEnabled', 'BoardDeleted', 'BoardMatched', 'BoardEdited'])(
    'refreshes the feed list and that feed on %s',
    (type) => {
      expect(keysInvalidatedBy({ type, ids: ['b1'] })).toEqual([boardKeys.list(), boardKeys.board('b1')]);
    },
  );

  it('refreshes the feed list alone when the event names no feed', () => {
    expect(keysInvalidatedBy({ type: 'BoardMatched', ids: [] })).toEqual([boardKeys.list()]);
  });

  it('keeps the channel refresh of a feed shared into a channel, and adds the feed’s', () => {
    const keys = keysInvalidatedBy({ type: 'BoardShared', ids: ['c1'] });
    expect(keys).toEqual(expect.arrayContaining([['channels', 'list'], boardKeys.list()]));
  });

  it.each(['FeedTemplateAdded', 'FeedTemplateChanged', 'FeedTemplateRemoved', 'FeedTemplatesOrdered'])(
    'refreshes the templates on %s, and no feed',
    (type) => {
      expect(keysInvalidatedBy({ type, ids: ['instance'] })).toEqual([boardKeys.templates()]);
    },
  );

  it('leaves other events alone', () => {
    expect(keysInvalidatedBy({ type: 'DocumentMarkedRead', ids: ['d1'] })).not.toContainEqual(boardKeys.list());
  });

  it('nests every feed key under the feed', () => {
    expect(boardKeys.documents('b1', 'links').slice(0, 3)).toEqual(boardKeys.board('b1'));
    expect(boardKeys.definition('b1').slice(0, 3)).toEqual(boardKeys.board('b1'));
    expect(boardKeys.list().slice(0, 1)).toEqual(boardKeys.all());
  });
});
