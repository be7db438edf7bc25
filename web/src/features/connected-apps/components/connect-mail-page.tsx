import { MAIL } from '../connections';
import { ConnectionPage } from './connection-page';
import { MailAccountForm } from './mail-account-form';
import { MailConnectionSummary } from './mail-connection-summary';

/**
 * /connect/app/email: connects a mailbox over IMAP (the form), or shows the connected one with
 * what it reads, its last sync and failure, and the ways to sync, choose folders, reconnect or
 * disconnect it.
 */
export function ConnectMailPage() {
  return (
    <ConnectionPage
      connection={MAIL}
      intro="Needl reads the folders you choose from any mail server that speaks IMAP. Each message, and each attachment, becomes a document only you can see, to read, search and ask about."
      stateOf={(app) => app.mail}
      summary={(app, mail, controls) => <MailConnectionSummary app={app} mail={mail} {...controls} />}
      form={(mail, controls) => <MailAccountForm mail={mail} {...controls} />}
    />
  );
}
