/** Events, chain answers and a render for the audit pages' tests. */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useLocation } from 'react-router';
import { sessionStore, type SessionUser } from '../../../lib/session-store';
import { renderWithProviders } from '../../../test/render';
import type { ChainStatus, StoredEvent } from '../api/audit-api';

export const ADMIN: SessionUser = { id: 'admin-1', email_id: 'ada@example.com', username: 'ada', is_admin: true };
export const AUDITOR: SessionUser = { ...ADMIN, id: 'aud-1', username: 'otto', is_admin: false, is_auditor: true };
export const MEMBER: SessionUser = { ...ADMIN, id: 'mem-1', username: 'mia', is_admin: false };

export const signInAs = (user: SessionUser) => sessionStore.signIn('tok', user);

/** Returns event number `n` of the feed (cursor `0-n`): Ada made tag `Tag n`. */
export function storedEvent(n: number, over: Partial<StoredEvent> = {}): StoredEvent {
  return {
    cursor: `0-${n}`,
    aggregate_type: 'tag_book',
    aggregate_id: 'admin-1',
    sequence: n,
    event_type: 'TagCreated',
    event_version: '1',
    payload: { TagCreated: { user_id: 'admin-1', tag_id: `t${n}`, name: `Tag ${n}` } },
    metadata: { user_id: 'admin-1', request_id: `req-${n}`, app_type: 'web', request_origin: '/settings/manage-tags', time: '2025-01-02T10:00:00Z' },
    recorded_at: '2025-01-02T10:00:00Z',
    actor_name: 'ada',
    ...over,
  };
}

/** Returns events `from` to `to`, both included, in feed order. */
export const storedEvents = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => storedEvent(from + i));

/** Returns events `newest` down to `oldest`, both included: the order the timeline asks for. */
export const newestFirst = (newest: number, oldest: number) => storedEvents(oldest, newest).reverse();

/** A page of events; `next` is where the page after it starts (null: the server says there is none). */
export const page = (events: StoredEvent[], next: string | null = null) => ({ events, next });

export function chainStatus(over: Partial<ChainStatus> = {}): ChainStatus {
  return {
    status: 'intact',
    events_checked: 42,
    head: { position: 42, hash: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' },
    first_break: null,
    verified_at: new Date().toISOString(),
    checkpoints: [],
    ...over,
  };
}

/** Writes the router's current address, so a test can see what the page put in it. */
function Address() {
  const location = useLocation();
  return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
}

/** Hands the page's query client to the test (to play a live message into it). */
function ClientProbe({ onClient }: { onClient: (client: QueryClient) => void }) {
  onClient(useQueryClient());
  return null;
}

/** Renders an audit page at `route`, with the address written out; returns a getter for the query client. */
export function renderAuditPage(ui: ReactElement, route: string) {
  let client: QueryClient | null = null;
  const view = renderWithProviders(
    <>
      {ui}
      <Address />
      <ClientProbe onClient={(c) => (client = c)} />
    </>,
    { route },
  );
  return { ...view, client: () => client! };
}
