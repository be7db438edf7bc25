import { Link } from 'react-router';
import { connectionOf, type ConnectedApp } from '../api/apps-api';
import type { Connection } from '../connections';
import '../connected-apps.css';

const documents = (count: number) => (count === 1 ? '1 document' : `${count.toLocaleString()} documents`);

/** Returns the card's line about the connection, or null while its state is not known. */
export function connectionStatus(app: ConnectedApp | undefined): string | null {
  if (!app) return null;
  const connection = connectionOf(app);
  return connection ? `Connected as ${connection.username} · ${documents(connection.imported)}` : 'Not connected';
}

export interface ConnectedAppCardProps {
  connection: Connection;
  /** The app as the server lists it; undefined while loading or when the list failed. */
  app: ConnectedApp | undefined;
  /** The apps could not be loaded: the card says so rather than guessing. */
  failed?: boolean;
}

/** The apps page's card of an app connected here: whether it is connected, as whom and with how many documents. */
export function ConnectedAppCard({ connection, app, failed = false }: ConnectedAppCardProps) {
  const status = connectionStatus(app);
  return (
    <li className="card" data-testid={connection.testId}>
      <h3 className="card-title">{app?.label ?? connection.name}</h3>
      <p className="muted">{connection.description}</p>
      {status && <p className="small connection-status">{status}</p>}
      {failed && <p className="small muted">Whether it is connected could not be loaded just now.</p>}
      {app?.tokenValid === false && <p className="small connection-warning">{connection.passwordRefused}</p>}
      <Link className="button" to={connection.connectPath}>
        {app?.connected ? connection.manageLabel : connection.connectLabel}
      </Link>
    </li>
  );
}
