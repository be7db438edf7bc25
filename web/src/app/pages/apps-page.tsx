import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ASK_UPLOAD_SOURCE } from '../../features/ask-needl';
import { ConnectedAppCard, connectedAppQueries, CONNECTIONS } from '../../features/connected-apps';
import { DRIVE_SOURCE } from '../../features/uploads';
import { libraryQueries } from '../../lib/queries/library-queries';
import { unconnectedApps, type UnconnectedApp } from './apps-catalogue';

const documents = (count: number | undefined) =>
  count === undefined ? null : count === 1 ? '1 document' : `${count.toLocaleString()} documents`;

/**
 * /apps: the apps of this instance. Needl Drive, AskNeedl attachments, Email (IMAP) and a WebDAV
 * drive work (with how many documents each holds, and whether the mailbox and the drive are
 * connected); the others cannot be connected here, and each says so, with what the server lacks
 * and the way its documents get in today.
 */
export function AppsPage() {
  const sources = useQuery(libraryQueries.privateSources()).data?.results;
  const apps = useQuery(connectedAppQueries.list());
  const listed = (key: string) => apps.data?.find((app) => app.key === key);
  const count = (key: string) => (sources ? (sources.find((s) => s.key === key)?.count ?? 0) : undefined);
  const driveCount = documents(count(DRIVE_SOURCE));
  const attachmentCount = documents(count(ASK_UPLOAD_SOURCE));
  return (
    <div className="page-narrow stack-lg apps-page">
      <section className="stack" aria-labelledby="apps-working">
        <h2 id="apps-working">Working on this instance</h2>
        <ul className="connect-grid" aria-label="Apps you can use">
          <li className="card">
            <h3 className="card-title">Needl Drive</h3>
            <p className="muted">Upload PDF, Word, Excel, PowerPoint, text and HTML files; each becomes a document to read, search and ask about.</p>
            {driveCount && <p className="small">{driveCount}</p>}
            <Link className="button button-primary" to="/apps/needldrive">
              Open Needl Drive
            </Link>
          </li>
          <li className="card">
            <h3 className="card-title">AskNeedl attachments</h3>
            <p className="muted">Files you attach to a question in AskNeedl, kept to read and ask about again.</p>
            {attachmentCount && <p className="small">{attachmentCount}</p>}
            <Link className="button" to={`/apps/${ASK_UPLOAD_SOURCE}`}>
              See attachments
            </Link>
          </li>
          {CONNECTIONS.map((connection) => {
            const app = listed(connection.key);
            return app?.disabled ? null : (
              <ConnectedAppCard key={connection.key} connection={connection} app={app} failed={apps.isError} />
            );
          })}
        </ul>
      </section>
      <section className="stack" aria-labelledby="apps-unconnected">
        <h2 id="apps-unconnected">Not connected on this instance</h2>
        <p className="muted">
          Needl cannot connect to these apps here. Their documents can still come in: each says how.
        </p>
        <ul className="connect-grid" aria-label="Apps that cannot be connected">
          {unconnectedApps(apps.data).map((app) => (
            <UnconnectedAppCard key={app.key} app={app} />
          ))}
        </ul>
      </section>
    </div>
  );
}

function UnconnectedAppCard({ app }: { app: UnconnectedApp }) {
  return (
    <li className="card" data-testid="unconnected-app">
      <h3 className="card-title">{app.name}</h3>
      <p className="small muted">{app.kind}: not connected</p>
      {app.missing && <p className="small muted">{app.missing}</p>}
      <p>{app.instead}</p>
      <p className="app-ways">
        {app.ways.map((way) => (
          <Link key={way.to} to={way.to}>
            {way.label} <span className="visually-hidden">instead of {app.name}</span>
          </Link>
        ))}
      </p>
    </li>
  );
}
