import { useId, useState, type ReactNode } from 'react';
import type { ConnectedApp, ConnectionState } from '../api/apps-api';
import type { Connection } from '../connections';
import { useSyncConnection } from '../hooks/use-connection-mutations';
import { ConnectionFacts, type ConnectionFact } from './connection-facts';
import { DisconnectDialog } from './disconnect-dialog';

/** What the page does for a connected summary. */
export interface SummaryControls {
  /** Opens the form again, filled with the connection's details but the password. */
  onReconnect: () => void;
  /** Called with the server's answer once a sync was asked for. */
  onSyncAsked: (app: ConnectedApp) => void;
  onDisconnected: () => void;
}

export interface ConnectionSummaryProps extends SummaryControls {
  connection: Connection;
  app: ConnectedApp;
  state: ConnectionState;
  /** What is connected, in the connection's own terms. */
  details: readonly ConnectionFact[];
  /** What Needl stops reading on disconnecting (the disconnect dialog says it). */
  subject: string;
  /** More buttons after Sync now (Choose folders). */
  actions?: ReactNode;
  /** Shown instead of the buttons while open (the folder editor). */
  editor?: ReactNode;
}

/**
 * A connected app: what it reads and what came of it, the last failure with Reconnect, and Sync
 * now, Edit account and Disconnect (after asking), with whatever else the connection offers.
 */
export function ConnectionSummary(props: ConnectionSummaryProps) {
  const { connection, app, state, details, subject, actions, editor, onReconnect, onSyncAsked, onDisconnected } = props;
  const sync = useSyncConnection(connection);
  const [disconnecting, setDisconnecting] = useState(false);
  const refused = app.tokenValid === false;
  const headingId = useId();
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <h3 id={headingId} className="card-title">
        {connection.summaryTitle}
      </h3>
      <ConnectionFacts details={details} state={state} />
      {(refused || state.last_error) && (
        <div className="form-error connection-problem" role="alert">
          <p>{refused ? connection.passwordRefused : 'The last sync failed.'}</p>
          {state.last_error && <p className="connection-problem-detail">{state.last_error}</p>}
          <button type="button" className="button button-small" onClick={onReconnect}>
            Reconnect
          </button>
        </div>
      )}
      {editor ?? (
        <div className="connection-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={sync.isPending}
            onClick={() => sync.mutate(undefined, { onSuccess: onSyncAsked })}
          >
            {sync.isPending ? 'Starting sync…' : 'Sync now'}
          </button>
          {actions}
          <button type="button" className="button" onClick={onReconnect}>
            Edit account
          </button>
          <button type="button" className="button button-danger" onClick={() => setDisconnecting(true)}>
            Disconnect
          </button>
        </div>
      )}
      {disconnecting && (
        <DisconnectDialog
          connection={connection}
          subject={subject}
          onClose={() => setDisconnecting(false)}
          onDisconnected={onDisconnected}
        />
      )}
    </section>
  );
}
