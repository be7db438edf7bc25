import { QueryClient } from '@tanstack/react-query';
import { applyLiveEvent, keysInvalidatedBy } from './live-events';
import { documentKeys } from './queries/document-keys';
import { sourceKeys } from './queries/source-keys';
import { userQueries } from './queries/user-queries';

describe('live events', () => {
  it('maps each known event type to the queries it makes stale', () => {
    expect(keysInvalidatedBy({ type: 'PreferencesChanged' })).toEqual([['user', 'preferences']]);
    expect(keysInvalidatedBy({ type: 'FeatureFlagSet' })).toEqual([['feature']]);
    expect(keysInvalidatedBy({ type: 'ProfileUpdated' })).toEqual([['user', 'profile']]);
    expect(keysInvalidatedBy({ type: 'OnboardingCompleted' })).toEqual([['user', 'status'], ['onboarding']]);
  });

  it('ignores event types it does not know', () => {
    expect(keysInvalidatedBy({ type: 'SomethingElseHappened' })).toEqual([]);
  });

  it('marks the preferences stale when preferences changed elsewhere', async () => {
    const client = new QueryClient();
    client.setQueryData(userQueries.preferences().queryKey, { nav_state: 'opened', askneedl_pro: false });
    client.setQueryData(userQueries.profile().queryKey, {
      id: 'u1',
      email_id: 'a@b.co',
      username: 'ann',
      industry: null,
      profession: null,
      whatsapp_number: null,
    });
    await applyLiveEvent(client, { cursor: '7', type: 'PreferencesChanged', ids: ['u1'] });
    expect(client.getQueryState(userQueries.preferences().queryKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(userQueries.profile().queryKey)?.isInvalidated).toBe(false);
  });

  it('makes document lists and the named documents stale when documents change', () => {
    for (const type of ['DocumentIngested', 'DocumentUpdated', 'DocumentDeleted']) {
      expect(keysInvalidatedBy({ type, ids: ['d1', 'd2'] })).toEqual([
        ['documents', 'list'],
        ['documents', 'detail', 'd1'],
        ['documents', 'detail', 'd2'],
      ]);
    }
  });

  it('makes the read status and document queries stale when read state changes', () => {
    for (const type of ['DocumentMarkedRead', 'DocumentMarkedUnread']) {
      expect(keysInvalidatedBy({ type, ids: ['d1'] })).toEqual([
        ['documents', 'read-status'],
        ['documents', 'list'],
        ['documents', 'detail'],
      ]);
    }
  });

  it('makes the source lists stale when sources change', () => {
    for (const type of ['SourceFollowed', 'SourceUnfollowed', 'SourcePriorityChanged', 'SourceRegistered']) {
      expect(keysInvalidatedBy({ type, ids: ['rss_1'] })).toEqual([['sources']]);
    }
  });

  it('refetches only the document that was updated, not others', async () => {
    const client = new QueryClient();
    client.setQueryData(documentKeys.detail('d1', 'rss_1'), { results: [] });
    client.setQueryData(documentKeys.detail('d2', 'rss_1'), { results: [] });
    client.setQueryData(sourceKeys.rss(), { results: [] });
    await applyLiveEvent(client, { cursor: '9', type: 'DocumentUpdated', ids: ['d1'] });
    expect(client.getQueryState(documentKeys.detail('d1', 'rss_1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(documentKeys.detail('d2', 'rss_1'))?.isInvalidated).toBe(false);
    expect(client.getQueryState(sourceKeys.rss())?.isInvalidated).toBe(false);
  });
});
