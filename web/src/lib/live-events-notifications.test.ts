import { keysInvalidatedBy } from './live-events';
import { notificationKeys } from './queries/notification-keys';
import { peopleKeys } from './queries/people-keys';

describe('live events of notifications and contacts', () => {
  it('refresh the bell and the list when a notification arrives or is read', () => {
    for (const type of ['NotificationCreated', 'NotificationRead', 'NotificationsAllRead']) {
      expect(keysInvalidatedBy({ type, ids: ['42'] })).toEqual([notificationKeys.all()]);
    }
  });

  it('refresh the contact book when a person is added or edited', () => {
    for (const type of ['PersonAdded', 'ContactsLinked', 'PersonRenamed', 'PersonPriorityChanged']) {
      expect(keysInvalidatedBy({ type, ids: ['u1'] })).toEqual([peopleKeys.all()]);
    }
  });
});
