import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { Connection } from '../connections';
import { useDisconnectConnection } from '../hooks/use-connection-mutations';
import { refusalText } from '../refusal';

export interface DisconnectDialogProps {
  connection: Connection;
  /** What Needl stops reading: the mail account, the folder's address. */
  subject: string;
  /** Cancel, Escape. */
  onClose: () => void;
  /** Called once it is disconnected. */
  onDisconnected: () => void;
}

/** Asks before disconnecting, saying that what the connection brought in stays. */
export function DisconnectDialog({ connection, subject, onClose, onDisconnected }: DisconnectDialogProps) {
  const disconnect = useDisconnectConnection(connection);
  const refusal = refusalText(disconnect.error);
  return (
    <ConfirmDialog
      title={connection.disconnectTitle}
      confirmLabel="Disconnect"
      pendingLabel="Disconnecting…"
      pending={disconnect.isPending}
      onCancel={onClose}
      onConfirm={() => disconnect.mutate(undefined, { onSuccess: onDisconnected })}
    >
      <p className="connection-subject">
        Needl stops reading {subject}. The documents it brought in stay in your documents: delete them there if you no
        longer want them.
      </p>
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </ConfirmDialog>
  );
}
