import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ListState } from '../../../components/ui/list-state';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/format';
import { askNeedlQueries, fetchSession } from '../api/ask-api';
import { AskNeedlChat } from '../chat-context';
import { useAskFlags } from '../hooks/use-ask-flags';
import { loadedSession } from '../session-messages';
import { WEB_SCOPE_ID } from '../types';
import { ChatPanel } from './chat-panel';

/** Loads the session the address names into the chat, once per session id. */
function useOpenSession(sessionId: string | null) {
  const chat = AskNeedlChat.useActorRef();
  const current = AskNeedlChat.useSelector((s) => s.context.sessionId);
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (!sessionId || sessionId === current) return;
    let cancelled = false;
    setFailed(null);
    (async () => {
      const session = await queryClient.fetchQuery({ ...askNeedlQueries.session(sessionId), queryFn: () => fetchSession(sessionId) });
      if (cancelled) return;
      chat.send({ type: 'chat.load', session: loadedSession(session) });
    })().catch((error: unknown) => {
      console.error('could not open the session', error);
      if (!cancelled) setFailed(sessionId);
    });
    return () => {
      cancelled = true;
    };
  }, [chat, current, queryClient, sessionId]);
  // Only a session that was asked for can have failed: with none named, both are null.
  return sessionId !== null && failed === sessionId;
}

/**
 * AskNeedl's history (ask_needl_history): the user's saved conversations, searchable, newest
 * first; the one named by `sessionId` opens in the chat, to read or go on with.
 */
export function AskNeedlHistoryPage() {
  const flags = useAskFlags();
  const [params, setParams] = useSearchParams();
  const sessionId = params.get('sessionId');
  const [q, setQ] = useState(params.get('q') ?? '');
  const sessions = useQuery({ ...askNeedlQueries.sessions(params.get('q') ?? ''), enabled: flags.history });
  const failed = useOpenSession(flags.history ? sessionId : null);
  const scopeId = AskNeedlChat.useSelector((s) => s.context.scope.id);

  if (flags.loading) return <Spinner label="Loading history" />;
  if (!flags.history) return <EmptyState title="History is not turned on for you" />;

  const search = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams(params);
    if (q.trim()) next.set('q', q.trim());
    else next.delete('q');
    setParams(next);
  };
  const linkTo = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('sessionId', id);
    return `?${next}`;
  };

  return (
    <div className="ask-history">
      <nav className="ask-history-list" aria-label="Conversations">
        <form role="search" onSubmit={search} className="ask-history-search">
          <input className="input" type="search" aria-label="Search conversations" placeholder="Search conversations" value={q} onChange={(e) => setQ(e.target.value)} />
        </form>
        <Link className="button button-small" to="/ask-needl/full">
          New chat
        </Link>
        <ListState
          query={sessions}
          compact
          loadingLabel="Loading conversations"
          errorTitle="The conversations could not be loaded"
          isEmpty={(list) => list.length === 0}
          emptyTitle="No conversations yet."
        >
          {(list) => (
            <ul>
              {list.map((session) => (
                <li key={session.id}>
                  <Link to={linkTo(session.id)} aria-current={session.id === sessionId ? 'page' : undefined} data-testid="ask-session">
                    {session.title}
                  </Link>
                  {session.updatedAt && <span className="small muted"> {formatDate(session.updatedAt)}</span>}
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </nav>
      <div className="ask-history-chat">
        {failed ? (
          <EmptyState title="This conversation could not be opened" />
        ) : sessionId ? (
          <>
            {scopeId === WEB_SCOPE_ID && <p className="small muted">Web search conversation</p>}
            <ChatPanel />
          </>
        ) : (
          <EmptyState title="Pick a conversation">
            <p>Your conversations with AskNeedl are kept here.</p>
          </EmptyState>
        )}
      </div>
    </div>
  );
}
