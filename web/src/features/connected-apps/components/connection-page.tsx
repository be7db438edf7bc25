import { Fragment, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import type { ConnectedApp } from '../api/apps-api';
import type { Connection } from '../connections';
import { useConnectedApp } from '../hooks/use-connected-app';
import type { SummaryControls } from './connection-summary';
import '../connected-apps.css';

/** What the page does for a connection's form. */
export interface FormControls {
  onConnected: (app: ConnectedApp) => void;
  /** Back to the summary, when the form replaced it. */
  onCancel?: () => void;
}

export interface ConnectionPageProps<S> {
  connection: Connection;
  /** What the connection does, under the heading. */
  intro: string;
  /** Returns the app's connection, or null when it is not connected. */
  stateOf: (app: ConnectedApp) => S | null;
  summary: (app: ConnectedApp, state: S, controls: SummaryControls) => ReactNode;
  /** The form, filled from `state` (all but the password) when reconnecting. */
  form: (state: S | null, controls: FormControls) => ReactNode;
}

/**
 * A connection's page: the form while it is not connected (or while reconnecting), else its
 * summary; a sync asked for, or the first one after connecting, is watched until it is recorded.
 * Focus goes to the heading when the form and the summary take each other's place.
 */
export function ConnectionPage<S>({ connection, intro, stateOf, summary, form }: ConnectionPageProps<S>) {
  const { query, watchSync } = useConnectedApp(connection.key);
  const [reconnecting, setReconnecting] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const settled = (app?: ConnectedApp) => {
    setReconnecting(false);
    if (app) watchSync(app);
    heading.current?.focus();
  };
  const reconnect = () => {
    setReconnecting(true);
    heading.current?.focus();
  };
  return (
    <div className="page-narrow stack-lg connection-page">
      <header className="stack">
        <h2 ref={heading} tabIndex={-1}>
          {connection.name}
        </h2>
        <p className="muted">{intro}</p>
      </header>
      <ListState
        query={query}
        loadingLabel={`Loading your ${connection.noun} connection`}
        errorTitle={`Your ${connection.noun} connection could not be loaded`}
      >
        {(app) => {
          const state = stateOf(app);
          if (state && !reconnecting) {
            return summary(app, state, { onReconnect: reconnect, onSyncAsked: watchSync, onDisconnected: () => settled() });
          }
          return (
            <Fragment key={state ? 'reconnect' : 'connect'}>
              {form(state, { onConnected: settled, onCancel: state ? () => settled() : undefined })}
            </Fragment>
          );
        }}
      </ListState>
      <p>
        <Link to={connection.documentsPath}>See your {connection.noun} documents</Link>
      </p>
    </div>
  );
}
