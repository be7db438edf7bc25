import { Fragment, type ReactNode } from 'react';
import { formatRelative } from '../../../lib/format';
import type { ConnectionState } from '../api/apps-api';

/** An instant as a person reads it ("5 mins ago"), with the local date and time on hover. */
function When({ instant, now }: { instant: string; now?: Date }) {
  const local = new Date(instant).toLocaleString();
  return (
    <time dateTime={instant} title={local}>
      {formatRelative(instant, now)}
    </time>
  );
}

/** A fact of one kind of connection: its term, and what it is. */
export type ConnectionFact = readonly [term: string, value: ReactNode];

export interface ConnectionFactsProps {
  /** What is connected, in the connection's own terms (the server, the folder, the account). */
  details: readonly ConnectionFact[];
  state: ConnectionState;
  now?: Date;
}

/** What is connected, then what every connection says of itself: what came of it and when. */
export function ConnectionFacts({ details, state, now }: ConnectionFactsProps) {
  const facts: ConnectionFact[] = [
    ...details,
    ['Documents imported', state.imported.toLocaleString()],
    ['Last synced', state.last_synced_at ? <When instant={state.last_synced_at} now={now} /> : 'Not yet'],
    ['Connected', <When instant={state.connected_at} now={now} />],
  ];
  return (
    <dl className="connection-facts">
      {facts.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
