import { QueryClient } from '@tanstack/react-query';
import { auditHeadOf, isAfter, noteAuditHead, parseCursor } from './live-audit';
import { applyLiveEvent } from './live-events';
import { auditKeys } from './queries/audit-keys';
import { tagKeys } from './queries/tag-keys';

describe('the audit log’s live message', () => {
  it('reads the head out of an audit message and nothing out of other messages', () => {
    expect(auditHeadOf({ type: 'audit', head: '3-41' })).toBe('3-41');
    expect(auditHeadOf({ type: 'audit', head: 'nonsense' })).toBeNull();
    expect(auditHeadOf({ type: 'audit' })).toBeNull();
    expect(auditHeadOf({ type: 'TagCreated', head: '3-41' })).toBeNull();
  });

  it('orders cursors by transaction, then position', () => {
    expect(parseCursor('12-7')).toEqual({ tx: 12, pos: 7 });
    expect(parseCursor('-1-7')).toBeNull();
    expect(isAfter('0-10', '0-9')).toBe(true);
    expect(isAfter('2-1', '1-99')).toBe(true);
    expect(isAfter('0-9', '0-9')).toBe(false);
    expect(isAfter('0-9', 'x')).toBe(false);
  });

  it('keeps the newest head, whatever order the messages come in', () => {
    const client = new QueryClient();
    noteAuditHead(client, '0-5');
    noteAuditHead(client, '0-3');
    expect(client.getQueryData(auditKeys.head())).toBe('0-5');
    noteAuditHead(client, '0-8');
    expect(client.getQueryData(auditKeys.head())).toBe('0-8');
  });

  it('records the head from the socket and refreshes nothing else', async () => {
    const client = new QueryClient();
    client.setQueryData(tagKeys.userTags(), []);
    await applyLiveEvent(client, { type: 'audit', head: '4-2', cursor: '', ids: [] });
    expect(client.getQueryData(auditKeys.head())).toBe('4-2');
    expect(client.getQueryState(tagKeys.userTags())?.isInvalidated).toBe(false);
  });
});
