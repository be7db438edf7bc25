import type { ConnectedApp, MailConnection } from '../api/apps-api';
import { useMailAccountForm } from '../hooks/use-mail-account-form';
import { MAX_FOLDERS } from '../mail-account';
import { ConnectionForm } from './connection-form';
import { MailAccountFields } from './mail-account-fields';
import { MailFolderChoice, toggled } from './mail-folder-choice';

export interface MailAccountFormProps {
  /** The connection to fill the form from (all but the password), when reconnecting. */
  mail: MailConnection | null;
  onConnected: (app: ConnectedApp) => void;
  onCancel?: () => void;
}

/**
 * Connects a mailbox in two steps: "Check and list folders" signs in and lists the folders
 * (nothing is kept), then "Connect" keeps the account and the folders ticked. The server's
 * refusal (a password it refused, a server it cannot reach) is shown under the fields.
 */
export function MailAccountForm({ mail, onConnected, onCancel }: MailAccountFormProps) {
  const form = useMailAccountForm(mail, onConnected);
  return (
    <ConnectionForm
      title={mail ? 'Reconnect your mailbox' : 'Connect a mailbox'}
      label="Mail account"
      onSubmit={form.submit}
      checked={form.folders !== null}
      checkLabel="Check and list folders"
      checking={form.checking}
      connecting={form.connecting}
      problems={[form.folderError, form.refusal]}
      onCancel={onCancel}
    >
      <MailAccountFields draft={form.draft} errors={form.errors} onChange={form.update} />
      {form.folders && (
        <>
          <p role="status" className="small">
            {form.folders.length === 1 ? 'The server has 1 folder.' : `The server has ${form.folders.length} folders.`}
          </p>
          <MailFolderChoice
            legend="Folders to read"
            hint={`Needl reads the folders you tick (at most ${MAX_FOLDERS}) and checks them for new mail from now on.`}
            folders={form.folders}
            chosen={form.chosen}
            onToggle={(folder) => form.setChosen((before) => toggled(before, folder))}
          />
        </>
      )}
    </ConnectionForm>
  );
}
