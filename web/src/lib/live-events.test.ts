import { QueryClient } from '@tanstack/react-query';
import { applyLiveEvent, keysInvalidatedBy } from './live-events';
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
});
