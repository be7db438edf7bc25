import type { DriveConnection } from './api/apps-api';
import { checkWebdavDraft, EMPTY_WEBDAV_DRAFT, webdavAccountOf, webdavDraftOf } from './webdav-account';

const FOLDER = 'https://cloud.example.com/remote.php/dav/files/ann/Reports/';

describe('the WebDAV form’s rules', () => {
  it('wants a web address, an account name and a password', () => {
    expect(checkWebdavDraft(EMPTY_WEBDAV_DRAFT)).toEqual({
      url: 'Folder address is a required field',
      username: 'Account name is a required field',
      password: 'Password is a required field',
    });
    const filled = { url: FOLDER, username: 'ann', password: 'app-password' };
    expect(checkWebdavDraft(filled)).toEqual({});
    expect(checkWebdavDraft({ ...filled, url: 'http://nas.lan/dav/Reports/' })).toEqual({});
    for (const url of ['cloud.example.com/Reports', 'ftp://nas.lan/Reports', 'https://', 'a b']) {
      expect(checkWebdavDraft({ ...filled, url }).url).toMatch(/must be a web address/);
    }
  });

  it('trims the address and the account name but not the password', () => {
    expect(webdavAccountOf({ url: ` ${FOLDER} `, username: ' ann ', password: ' secret ' })).toEqual({
      url: FOLDER,
      username: 'ann',
      password: ' secret ',
    });
  });

  it('fills the form from a connection but the password', () => {
    const drive: DriveConnection = {
      url: FOLDER,
      username: 'ann',
      imported: 3,
      connected_at: '2026-01-01T00:00:00Z',
      last_synced_at: null,
      last_error: null,
      syncing: false,
    };
    expect(webdavDraftOf(drive)).toEqual({ url: FOLDER, username: 'ann', password: '' });
  });
});
