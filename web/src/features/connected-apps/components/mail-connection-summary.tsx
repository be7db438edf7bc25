import { useRef, useState } from 'react';
import type { ConnectedApp, MailConnection } from '../api/apps-api';
import { MAIL } from '../connections';
import { securityName } from '../mail-account';
import { ConnectionSummary, type SummaryControls } from './connection-summary';
import { MailFoldersEditor } from './mail-folders-editor';

export interface MailConnectionSummaryProps extends SummaryControls {
  app: ConnectedApp;
  mail: MailConnection;
}

/** The connected mailbox (`ConnectionSummary`): its server, account and folders, and Choose folders. */
export function MailConnectionSummary({ mail, ...props }: MailConnectionSummaryProps) {
  const [editingFolders, setEditingFolders] = useState(false);
  // Where focus goes back when the folder editor closes and its opener is shown again.
  const chooseFolders = useRef<HTMLButtonElement>(null);
  const closeFolders = () => {
    setEditingFolders(false);
    requestAnimationFrame(() => chooseFolders.current?.focus());
  };
  return (
    <ConnectionSummary
      {...props}
      connection={MAIL}
      state={mail}
      subject={mail.username}
      details={[
        ['Server', `${mail.host}:${mail.port}`],
        ['Security', securityName(mail.security)],
        ['Account', mail.username],
        ['Folders', mail.folders.join(', ')],
      ]}
      editor={editingFolders ? <MailFoldersEditor folders={mail.folders} onDone={closeFolders} /> : undefined}
      actions={
        <button ref={chooseFolders} type="button" className="button" onClick={() => setEditingFolders(true)}>
          Choose folders
        </button>
      }
    />
  );
}
