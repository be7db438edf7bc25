/**
 * The mail form's rules, without React: the security choices and their usual ports, and what the
 * form checks before it asks the server.
 */
import type { MailAccount, MailConnection, MailSecurity } from './api/apps-api';
import { checkCredentials, type FieldErrors } from './credentials';

export interface SecurityChoice {
  value: MailSecurity;
  label: string;
  port: number;
}

export const SECURITY_CHOICES: readonly SecurityChoice[] = [
  { value: 'tls', label: 'TLS (port 993)', port: 993 },
  { value: 'start_tls', label: 'STARTTLS (port 143)', port: 143 },
  { value: 'plain', label: 'Plain, unencrypted (local servers only)', port: 143 },
];

/** Returns the port a server of this kind listens on unless told otherwise (the server's rule too). */
export const defaultPort = (security: MailSecurity): number =>
  SECURITY_CHOICES.find((choice) => choice.value === security)?.port ?? 993;

/** Returns the short name of a security choice, as the connection's summary shows it. */
export const securityName = (security: MailSecurity): string =>
  ({ tls: 'TLS', start_tls: 'STARTTLS', plain: 'Plain, unencrypted' })[security];

/** The form's fields as typed; the port stays text until it is sent. */
export interface MailDraft {
  host: string;
  security: MailSecurity;
  port: string;
  username: string;
  password: string;
}

export const EMPTY_DRAFT: MailDraft = { host: '', security: 'tls', port: '', username: '', password: '' };

/** Returns the form filled with a connection's details, all but the password (the server never gives it). */
export function draftOf(mail: MailConnection): MailDraft {
  return {
    host: mail.host,
    security: mail.security,
    port: mail.port === defaultPort(mail.security) ? '' : String(mail.port),
    username: mail.username,
    password: '',
  };
}

/** Returns the first problem with each field, found before anything is sent. */
export function checkDraft(draft: MailDraft): FieldErrors<MailDraft> {
  const errors: FieldErrors<MailDraft> = {};
  if (!draft.host.trim()) errors.host = 'Server is a required field';
  const port = draft.port.trim();
  if (port && !(/^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    errors.port = 'Port must be a number from 1 to 65535';
  }
  return { ...errors, ...checkCredentials(draft) };
}

/** Returns what is sent for a draft that passed `checkDraft`. */
export function accountOf(draft: MailDraft): MailAccount {
  const port = draft.port.trim();
  return {
    host: draft.host.trim(),
    ...(port ? { port: Number(port) } : {}),
    security: draft.security,
    username: draft.username.trim(),
    password: draft.password,
  };
}

/** How many folders one mailbox may read (the server's limit). */
export const MAX_FOLDERS = 20;

/** Returns why a choice of folders cannot be sent, or null when it can. */
export function checkFolders(folders: readonly string[]): string | null {
  if (folders.length === 0) return 'Choose at least one folder to read.';
  if (folders.length > MAX_FOLDERS) return `Choose at most ${MAX_FOLDERS} folders.`;
  return null;
}
