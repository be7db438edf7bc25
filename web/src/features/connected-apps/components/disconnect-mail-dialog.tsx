import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { MailConnection } from '../api/apps-api';
import { useDisconnectMail } from '../hooks/use-mail-mutations';
import { refusalText } from '../mail-account';

export interface DisconnectMailDialogProps {
  mail: MailConnection;
  /** Cancel, Escape. */
  onClose: () => void;
  /** Called once the mailbox is disconnected. */
  onDisconnected: () => void;
}

/** Asks before disconnecting the mailbox, saying that what it brought in stays. */
export function DisconnectMailDialog({ mail, onClose, onDisconnected }: DisconnectMailDialogProps) {
  const disconnect = useDisconnectMail();
  const refusal = refusalText(disconnect.error);
  return (
    <ConfirmDialog
      title="Disconnect your mailbox?"
      confirmLabel="Disconnect"
      pendingLabel="Disconnecting…"
      pending={disconnect.isPending}
      onCancel={onClose}
      onConfirm={() => disconnect.mutate(undefined, { onSuccess: onDisconnected })}
    >
      <p>
        Needl stops reading {mail.username}. The documents it brought in stay in your documents:
        delete them there if you no longer want them.
      </p>
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </ConfirmDialog>
  );
}
