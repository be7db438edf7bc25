import { useQuery } from '@tanstack/react-query';
import { ListState } from '../../../components/ui/list-state';
import { formatDate, formatRelative } from '../../../lib/format';
import { useSession } from '../../../lib/use-session';
import { OUTBOX_LIMIT, outboxQueries, type OutboxMessage } from '../api/outbox-api';
import { SettingsNav } from './settings-nav';

/** How a channel is named to a person. */
const CHANNEL_NAMES: Record<string, string> = { whatsapp: 'WhatsApp' };

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function OutboxItem({ message }: { message: OutboxMessage }) {
  const channel = CHANNEL_NAMES[message.channel] ?? message.channel;
  return (
    <li className="outbox-item stack" aria-label={`${channel} to ${message.recipient}`}>
      <p className="outbox-meta">
        <span className="badge">{channel}</span> <strong>{message.recipient}</strong>{' '}
        <time className="small muted" dateTime={message.created_at} title={`${formatDate(message.created_at)} ${clock(message.created_at)}`}>
          {formatRelative(message.created_at)}, {clock(message.created_at)}
        </time>
      </p>
      <p className="outbox-body">{message.body}</p>
    </li>
  );
}

/**
 * /settings/outbox, for administrators: the messages the server could not send for want of a
 * messaging provider (WhatsApp verification codes), newest first, for an administrator to pass on
 * to the person named. It looks for new ones every few seconds while open.
 */
export function OutboxPage() {
  const admin = useSession().user?.is_admin ?? false;
  const messages = useQuery({ ...outboxQueries.messages(), enabled: admin });
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card stack" aria-labelledby="outbox-heading">
        <div className="outbox-header">
          <h2 id="outbox-heading" className="card-title">
            Outbox
          </h2>
          {admin && (
            <button type="button" className="button button-quiet" onClick={() => void messages.refetch()} disabled={messages.isFetching}>
              {messages.isFetching ? 'Refreshing…' : 'Refresh'}
            </button>
          )}
        </div>
        {!admin ? (
          <p className="muted">Only administrators read the outbox.</p>
        ) : (
          <>
            <p className="small muted">
              No messaging provider is set up, so messages such as WhatsApp verification codes are kept here instead of
              being sent. Pass each one on to the person it is for. The newest {OUTBOX_LIMIT} are shown, newest first.
            </p>
            <ListState
              query={messages}
              loadingLabel="Loading the outbox"
              errorTitle="The outbox could not be loaded"
              isEmpty={(list) => list.length === 0}
              emptyTitle="No messages waiting"
              emptyHint="With no messaging provider configured, verification codes are delivered here for an administrator to pass on. None has been asked for yet."
            >
              {(list) => (
                <ul className="outbox-list" aria-label="Messages">
                  {list.map((message) => (
                    <OutboxItem key={message.id} message={message} />
                  ))}
                </ul>
              )}
            </ListState>
          </>
        )}
      </section>
    </div>
  );
}
