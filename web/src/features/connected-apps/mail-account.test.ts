import { accountOf, checkDraft, checkFolders, draftOf, EMPTY_DRAFT } from './mail-account';
import type { MailConnection } from './api/apps-api';

const MAILBOX: MailConnection = {
  host: 'imap.example.org',
  port: 993,
  security: 'tls',
  username: 'ada@example.org',
  folders: ['INBOX'],
  imported: 0,
  connected_at: '2026-01-01T00:00:00Z',
  last_synced_at: null,
  last_error: null,
  syncing: false,
};

describe('the mail form’s rules', () => {
  it('sends the port only when one is typed, and trims what the server trims', () => {
    const draft = { ...EMPTY_DRAFT, host: ' imap.example.org ', username: ' ada ', password: ' secret ' };
    expect(accountOf(draft)).toEqual({ host: 'imap.example.org', security: 'tls', username: 'ada', password: ' secret ' });
    expect(accountOf({ ...draft, port: ' 1143 ' })).toMatchObject({ port: 1143 });
  });

  it('refuses a port outside 1 to 65535 or not a number', () => {
    const ok = { ...EMPTY_DRAFT, host: 'h', username: 'u', password: 'p' };
    expect(checkDraft(ok)).toEqual({});
    for (const port of ['0', '65536', '99a', '-1', '1.5']) expect(checkDraft({ ...ok, port }).port).toBeDefined();
    expect(checkDraft({ ...ok, port: '65535' })).toEqual({});
  });

  it('fills the form from a connection but the password, leaving a usual port blank', () => {
    expect(draftOf(MAILBOX)).toEqual({ host: 'imap.example.org', security: 'tls', port: '', username: 'ada@example.org', password: '' });
    expect(draftOf({ ...MAILBOX, security: 'start_tls', port: 993 }).port).toBe('993');
  });

  it('wants one to twenty folders', () => {
    expect(checkFolders([])).toMatch(/at least one/);
    expect(checkFolders(Array.from({ length: 21 }, (_, i) => `F${i}`))).toMatch(/at most 20/);
    expect(checkFolders(['INBOX'])).toBeNull();
  });
});
