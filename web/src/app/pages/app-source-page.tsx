import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { ASK_UPLOAD_SOURCE } from '../../features/ask-needl';
import {
  connectedAppQueries,
  ConnectMailPage,
  ConnectWebdavPage,
  MAIL,
  MAIL_APP,
  WEBDAV,
  WEBDAV_APP,
  type Connection,
} from '../../features/connected-apps';
import { DocumentList } from '../../features/documents';
import { titleFromSourceKey } from '../../lib/format';
import { ADD_RSS, CONNECT_MAIL, FOLLOW_WEBSITE, unconnectedApp, UPLOAD } from './apps-catalogue';

/**
 * /apps/{source} (and /connect/app/{source}): AskNeedl attachments, mail and the WebDAV drive list
 * their documents, and mail and the WebDAV drive are connected at /connect/app/email and
 * /connect/app/webdav; an app that cannot be connected here says so, with the way its documents
 * get in today. (Needl Drive has its own routes.)
 */
export function AppSourcePage() {
  const { source, app: connectKey } = useParams();
  const key = source ?? connectKey ?? '';
  if (key === MAIL_APP) {
    return connectKey ? (
      <ConnectMailPage />
    ) : (
      <ConnectionDocuments connection={MAIL} emptyTitle="No mail yet" connectLabel="Connect a mailbox">
        Messages and attachments from the mailbox you connect show up here.
      </ConnectionDocuments>
    );
  }
  if (key === WEBDAV_APP) {
    return connectKey ? (
      <ConnectWebdavPage />
    ) : (
      <ConnectionDocuments connection={WEBDAV} emptyTitle="No drive documents yet" connectLabel="Connect a drive">
        Files from the WebDAV folder you connect show up here.
      </ConnectionDocuments>
    );
  }
  if (key === ASK_UPLOAD_SOURCE) {
    return (
      <div className="page-narrow">
        <DocumentList
          source={ASK_UPLOAD_SOURCE}
          category="apps"
          empty={
            <EmptyState title="No attachments yet">
              <p>Files you attach to a question in AskNeedl are kept here.</p>
            </EmptyState>
          }
        />
      </div>
    );
  }
  return <UnconnectedAppPage appKey={key} />;
}

interface ConnectionDocumentsProps {
  connection: Connection;
  emptyTitle: string;
  /** The empty list's link to the connection's page. */
  connectLabel: string;
  /** What fills the list, said while it is empty. */
  children: ReactNode;
}

/** /apps/email, /apps/webdav: the documents a connection brought in, newest first. */
function ConnectionDocuments({ connection, emptyTitle, connectLabel, children }: ConnectionDocumentsProps) {
  return (
    <div className="page-narrow stack">
      <p>
        <Link to={connection.connectPath}>Manage the {connection.noun} connection</Link>
      </p>
      <DocumentList
        source={connection.key}
        category="apps"
        empty={
          <EmptyState title={emptyTitle}>
            <p>
              {children} <Link to={connection.connectPath}>{connectLabel}</Link>
            </p>
          </EmptyState>
        }
      />
    </div>
  );
}

/** An app that cannot be connected here, with the server's words for it when it has some. */
function UnconnectedAppPage({ appKey }: { appKey: string }) {
  const app = unconnectedApp(appKey);
  const listed = useQuery(connectedAppQueries.detail(appKey)).data;
  const name = listed?.label ?? app?.name ?? titleFromSourceKey(appKey);
  const known = app?.ways ?? [UPLOAD, ADD_RSS, FOLLOW_WEBSITE];
  // A mailbox the server cannot reach through its vendor can still come in over IMAP.
  const ways = listed?.category === 'Emails' ? [CONNECT_MAIL, ...known] : known;
  return (
    <EmptyState title={`${name} is not connected on this instance`}>
      {listed?.missing && <p>{listed.missing}</p>}
      <p>
        {listed?.instead ??
          app?.instead ??
          'Needl cannot connect to this app here. Upload its files to Needl Drive, or follow its RSS feed or website.'}
      </p>
      <p className="empty-state-actions">
        {ways.map((way) => (
          <Link key={way.to} to={way.to}>
            {way.label}
          </Link>
        ))}
        <Link to="/apps">See all apps</Link>
      </p>
    </EmptyState>
  );
}
