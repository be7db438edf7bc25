/** The WebDAV form's rules, without React: what it checks before it asks the server, and what it sends. */
import type { DriveConnection, WebdavAccount } from './api/apps-api';
import { checkCredentials, type FieldErrors } from './credentials';

/** The form's fields as typed. */
export interface WebdavDraft {
  url: string;
  username: string;
  password: string;
}

export const EMPTY_WEBDAV_DRAFT: WebdavDraft = { url: '', username: '', password: '' };

/** Returns the form filled with a connection's details, all but the password (the server never gives it). */
export const webdavDraftOf = (drive: DriveConnection): WebdavDraft => ({ url: drive.url, username: drive.username, password: '' });

/** Returns whether `text` is a web address the server could ask (http or https, with a host). */
function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Returns the first problem with each field, found before anything is sent. */
export function checkWebdavDraft(draft: WebdavDraft): FieldErrors<WebdavDraft> {
  const errors: FieldErrors<WebdavDraft> = {};
  const url = draft.url.trim();
  if (!url) errors.url = 'Folder address is a required field';
  else if (!isWebAddress(url)) errors.url = 'Folder address must be a web address starting with https://';
  return { ...errors, ...checkCredentials(draft) };
}

/** Returns what is sent for a draft that passed `checkWebdavDraft`. */
export const webdavAccountOf = (draft: WebdavDraft): WebdavAccount => ({
  url: draft.url.trim(),
  username: draft.username.trim(),
  password: draft.password,
});
