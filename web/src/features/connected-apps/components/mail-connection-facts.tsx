import { formatRelative } from '../../../lib/format';
import type { MailConnection } from '../api/apps-api';
import { securityName } from '../mail-account';

/** An instant as a person reads it ("5 mins ago"), with the local date and time on hover. */
function When({ instant, now }: { instant: string; now?: Date }) {
  const local = new Date(instant).toLocaleString();
  return (
    <time dateTime={instant} title={local}>
      {formatRelative(instant, now)}
    </time>
  );
}

/** What is connected: the server, how it is reached, the account, the folders read and what came of it. */
export function MailConnectionFacts({ mail, now }: { mail: MailConnection; now?: Date }) {
  return (
    <dl className="mail-facts">
      <dt>Server</dt>
      <dd>
        {mail.host}:{mail.port}
      </dd>
      <dt>Security</dt>
      <dd>{securityName(mail.security)}</dd>
      <dt>Account</dt>
      <dd>{mail.username}</dd>
      <dt>Folders</dt>
      <dd>{mail.folders.join(', ')}</dd>
      <dt>Documents imported</dt>
      <dd>{mail.imported.toLocaleString()}</dd>
      <dt>Last synced</dt>
      <dd>{mail.last_synced_at ? <When instant={mail.last_synced_at} now={now} /> : 'Not yet'}</dd>
      <dt>Connected</dt>
      <dd>
        <When instant={mail.connected_at} now={now} />
      </dd>
    </dl>
  );
}
