import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import type { ConnectedApp } from '../api/apps-api';
import { useMailApp } from '../hooks/use-mail-app';
import { MAIL_DOCUMENTS_PATH } from '../paths';
import { MailAccountForm } from './mail-account-form';
import { MailConnectionSummary } from './mail-connection-summary';
import '../connected-apps.css';

/**
 * /connect/app/email: connects a mailbox over IMAP (the form), or shows the connected one with
 * what it reads, its last sync and failure, and the ways to sync, choose folders, reconnect or
 * disconnect it.
 */
export function ConnectMailPage() {
  const { query, watchSync } = useMailApp();
  const [reconnecting, setReconnecting] = useState(false);
  // Where focus goes when the form and the summary take each other's place.
  const heading = useRef<HTMLHeadingElement>(null);
  const settled = (app?: ConnectedApp) => {
    setReconnecting(false);
    if (app) watchSync(app);
    heading.current?.focus();
  };
  return (
    <div className="page-narrow stack-lg mail-page">
      <header className="stack">
        <h2 id="mail-heading" ref={heading} tabIndex={-1}>
          Email (IMAP)
        </h2>
        <p className="muted">
          Needl reads the folders you choose from any mail server that speaks IMAP. Each message, and each attachment,
          becomes a document only you can see, to read, search and ask about.
        </p>
      </header>
      <ListState query={query} loadingLabel="Loading your mail connection" errorTitle="Your mail connection could not be loaded">
        {(app) =>
          app.mail && !reconnecting ? (
            <MailConnectionSummary
              app={app}
              mail={app.mail}
              onReconnect={() => {
                setReconnecting(true);
                heading.current?.focus();
              }}
              onSyncAsked={watchSync}
              onDisconnected={() => settled()}
            />
          ) : (
            <MailAccountForm
              key={app.mail ? 'reconnect' : 'connect'}
              mail={app.mail}
              onConnected={settled}
              onCancel={app.mail ? () => settled() : undefined}
            />
          )
        }
      </ListState>
      <p>
        <Link to={MAIL_DOCUMENTS_PATH}>See your mail documents</Link>
      </p>
    </div>
  );
}
