import { cleanGroupName, groupNameError } from './group-name';
import { GROUP_NAME_INVALID, GROUP_NAME_REQUIRED, GROUP_NAME_TOO_LONG } from './messages';
import { publishTitle } from './publish';
import { isUnread } from './unread';

describe('group names', () => {
  it('requires a name, with the spec’s words', () => {
    expect(groupNameError('')).toBe(GROUP_NAME_REQUIRED);
    expect(groupNameError('   ')).toBe(GROUP_NAME_REQUIRED);
  });

  it('allows letters, digits, hyphen, underscore and spaces with at least one letter or digit', () => {
    expect(groupNameError('Credit team_2-a')).toBeNull();
    expect(groupNameError('desk!')).toBe(GROUP_NAME_INVALID);
    expect(groupNameError('équipe')).toBe(GROUP_NAME_INVALID);
    expect(groupNameError('-_-')).toBe(GROUP_NAME_INVALID);
    expect(groupNameError('a'.repeat(101))).toBe(GROUP_NAME_TOO_LONG);
  });

  it('cleans spaces as the server does', () => {
    expect(cleanGroupName('  Credit   team ')).toBe('Credit team');
  });
});

describe('the publish title', () => {
  it('is ALL for organisation 2, else the domain, the name or “your”', () => {
    expect(publishTitle({ id: 2, domain: 'x.com', name: 'X' })).toBe('ALL');
    expect(publishTitle({ id: '5', domain: 'x.com', name: 'X' })).toBe('x.com');
    expect(publishTitle({ id: 5, domain: '', name: 'X' })).toBe('X');
    expect(publishTitle({ id: 5, domain: ' ', name: '' })).toBe('your');
  });
});

describe('a group’s new activity', () => {
  const group = { created_by: 'u1', updated_at: '2025-01-02T00:00:00.000Z' };
  it('is new when it changed after the last visit, or was never opened by someone who did not make it', () => {
    expect(isUnread({ ...group, last_seen: '2025-01-01T00:00:00.000Z' }, 'u1')).toBe(true);
    expect(isUnread({ ...group, last_seen: '2025-01-03T00:00:00.000Z' }, 'u1')).toBe(false);
    expect(isUnread({ ...group, last_seen: null }, 'u1')).toBe(false);
    expect(isUnread({ ...group, last_seen: null }, 'u2')).toBe(true);
  });
});
