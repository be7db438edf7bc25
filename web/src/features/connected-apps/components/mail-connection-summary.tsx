import { useRef, useState } from 'react';
import type { ConnectedApp, MailConnection } from '../api/apps-api';
import { useSyncMail } from '../hooks/use-mail-mutations';
import { DisconnectMailDialog } from './disconnect-mail-dialog';
import { MailConnectionFacts } from './mail-connection-facts';
import { MailFoldersEditor } from './mail-folders-editor';

export const PASSWORD_REFUSED = 'The mail server no longer accepts the password — reconnect';

export interface MailConnectionSummaryProps {
  app: ConnectedApp;
  mail: MailConnection;
  /** Opens the form again, filled with the connection's details but the password. */
  onReconnect: () => void;
  /** Called with the server's answer once a sync was asked for. */
  onSyncAsked: (app: ConnectedApp) => void;
  onDisconnected: () => void;
}

/**
 * The connected mailbox: what it reads and what came of it, the last failure with Reconnect,
 * and Sync now, Choose folders and Disconnect (after asking).
 */
export function MailConnectionSummary({ app, mail, onReconnect, onSyncAsked, onDisconnected }: MailConnectionSummaryProps) {
  const sync = useSyncMail();
  const [editingFolders, setEditingFolders] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  // Where focus goes back when the folder editor closes and its opener is shown again.
  const chooseFolders = useRef<HTMLButtonElement>(null);
  const closeFolders = () => {
    setEditingFolders(false);
    requestAnimationFrame(() => chooseFolders.current?.focus());
  };
  const refused = app.tokenValid === false;
  return (
    <section className="card stack" aria-labelledby="mail-summary-heading">
      <h3 id="mail-summary-heading" className="card-title">
        Your mailbox
      </h3>
      <MailConnectionFacts mail={mail} />
      {(refused || mail.last_error) && (
        <div className="form-error mail-problem" role="alert">
          <p>{refused ? PASSWORD_REFUSED : 'The last sync failed.'}</p>
          {mail.last_error && <p className="mail-problem-detail">{mail.last_error}</p>}
          <button type="button" className="button button-small" onClick={onReconnect}>
            Reconnect
          </button>
        </div>
      )}
      {editingFolders ? (
        <MailFoldersEditor folders={mail.folders} onDone={closeFolders} />
      ) : (
        <div className="mail-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={sync.isPending}
            onClick={() => sync.mutate(undefined, { onSuccess: onSyncAsked })}
          >
            {sync.isPending ? 'Starting sync…' : 'Sync now'}
          </button>
          <button ref={chooseFolders} type="button" className="button" onClick={() => setEditingFolders(true)}>
            Choose folders
          </button>
          <button type="button" className="button" onClick={onReconnect}>
            Edit account
          </button>
          <button type="button" className="button button-danger" onClick={() => setDisconnecting(true)}>
            Disconnect
          </button>
        </div>
      )}
      {disconnecting && (
        <DisconnectMailDialog mail={mail} onClose={() => setDisconnecting(false)} onDisconnected={onDisconnected} />
      )}
    </section>
  );
}
