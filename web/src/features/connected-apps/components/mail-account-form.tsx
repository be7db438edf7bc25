import type { ConnectedApp, MailConnection } from '../api/apps-api';
import { useMailAccountForm } from '../hooks/use-mail-account-form';
import { MAX_FOLDERS } from '../mail-account';
import { MailAccountFields } from './mail-account-fields';
import { MailFolderChoice, toggled } from './mail-folder-choice';

export interface MailAccountFormProps {
  /** The connection to fill the form from (all but the password), when reconnecting. */
  mail: MailConnection | null;
  onConnected: (app: ConnectedApp) => void;
  /** Shown as Cancel when the form replaces a connection's summary. */
  onCancel?: () => void;
}

/**
 * Connects a mailbox in two steps: "Check and list folders" signs in and lists the folders
 * (nothing is kept), then "Connect" keeps the account and the folders ticked. The server's
 * refusal (a password it refused, a server it cannot reach) is shown under the fields.
 */
export function MailAccountForm({ mail, onConnected, onCancel }: MailAccountFormProps) {
  const form = useMailAccountForm(mail, onConnected);
  const pending = form.checking || form.connecting;
  return (
    <section className="card stack" aria-labelledby="mail-form-heading">
      <h3 id="mail-form-heading" className="card-title">
        {mail ? 'Reconnect your mailbox' : 'Connect a mailbox'}
      </h3>
      <form className="stack mail-form" noValidate onSubmit={form.submit} aria-label="Mail account">
        <MailAccountFields draft={form.draft} errors={form.errors} onChange={form.update} />
        {form.folders && (
          <p role="status" className="small">
            {form.folders.length === 1 ? 'The server has 1 folder.' : `The server has ${form.folders.length} folders.`}
          </p>
        )}
        {form.folders && (
          <MailFolderChoice
            legend="Folders to read"
            hint={`Needl reads the folders you tick (at most ${MAX_FOLDERS}) and checks them for new mail from now on.`}
            folders={form.folders}
            chosen={form.chosen}
            onToggle={(folder) => form.setChosen((before) => toggled(before, folder))}
          />
        )}
        {form.folderError && (
          <p className="form-error" role="alert">
            {form.folderError}
          </p>
        )}
        {form.refusal && (
          <p className="form-error" role="alert">
            {form.refusal}
          </p>
        )}
        <div className="mail-actions">
          {form.folders ? (
            <button className="button button-primary" type="submit" disabled={pending}>
              {form.connecting ? 'Connecting…' : 'Connect'}
            </button>
          ) : (
            <button className="button button-primary" type="submit" disabled={pending}>
              {form.checking ? 'Checking…' : 'Check and list folders'}
            </button>
          )}
          {onCancel && (
            <button className="button" type="button" onClick={onCancel} disabled={pending}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
