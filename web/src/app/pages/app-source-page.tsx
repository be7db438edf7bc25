import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { ASK_UPLOAD_SOURCE } from '../../features/ask-needl';
import { CONNECT_MAIL_PATH, connectedAppQueries, ConnectMailPage, MAIL_APP } from '../../features/connected-apps';
import { DocumentList } from '../../features/documents';
import { titleFromSourceKey } from '../../lib/format';
import { ADD_RSS, CONNECT_MAIL, FOLLOW_WEBSITE, unconnectedApp, UPLOAD } from './apps-catalogue';

/**
 * /apps/{source} (and /connect/app/{source}): AskNeedl attachments and mail list their documents,
 * and mail is connected at /connect/app/email; an app that cannot be connected here says so,
 * with the way its documents get in today. (The drive has its own routes.)
 */
export function AppSourcePage() {
  const { source, app: connectKey } = useParams();
  const key = source ?? connectKey ?? '';
  if (key === MAIL_APP) return connectKey ? <ConnectMailPage /> : <MailDocuments />;
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

/** /apps/email: the messages and attachments the connected mailbox brought in, newest first. */
function MailDocuments() {
  return (
    <div className="page-narrow stack">
      <p>
        <Link to={CONNECT_MAIL_PATH}>Manage the mail connection</Link>
      </p>
      <DocumentList
        source={MAIL_APP}
        category="apps"
        empty={
          <EmptyState title="No mail yet">
            <p>
              Messages and attachments from the mailbox you connect show up here.{' '}
              <Link to={CONNECT_MAIL_PATH}>Connect a mailbox</Link>
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
