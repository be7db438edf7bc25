import { Link } from 'react-router';
import type { ConnectedApp } from '../api/apps-api';
import { CONNECT_MAIL_PATH } from '../paths';
import { PASSWORD_REFUSED } from './mail-connection-summary';
import '../connected-apps.css';

const documents = (count: number) => (count === 1 ? '1 document' : `${count.toLocaleString()} documents`);

/** Returns the card's line about the connection, or null while its state is not known. */
export function mailStatus(app: ConnectedApp | undefined): string | null {
  if (!app) return null;
  return app.mail ? `Connected as ${app.mail.username} · ${documents(app.mail.imported)}` : 'Not connected';
}

export interface MailAppCardProps {
  /** The mail app as the server lists it; undefined while loading or when the list failed. */
  app: ConnectedApp | undefined;
  /** The apps could not be loaded: the card says so rather than guessing. */
  failed?: boolean;
}

/** The apps page's card of mail over IMAP: whether it is connected, as whom and with how many documents. */
export function MailAppCard({ app, failed = false }: MailAppCardProps) {
  const status = mailStatus(app);
  return (
    <li className="card" data-testid="mail-app">
      <h3 className="card-title">{app?.label ?? 'Email (IMAP)'}</h3>
      <p className="muted">
        Read the folders you choose from any mail server that speaks IMAP; each message and attachment becomes a
        document only you see.
      </p>
      {status && <p className="small">{status}</p>}
      {failed && <p className="small muted">Whether it is connected could not be loaded just now.</p>}
      {app?.tokenValid === false && <p className="small mail-warning">{PASSWORD_REFUSED}</p>}
      <Link className="button" to={CONNECT_MAIL_PATH}>
        {app?.connected ? 'Manage email' : 'Connect email'}
      </Link>
    </li>
  );
}
