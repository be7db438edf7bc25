import { useEffect } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { AskNeedlChat } from '../chat-context';
import { useAskFlags } from '../hooks/use-ask-flags';
import { useReportModeFromAddress } from '../hooks/use-report-mode';
import { HOME_SCOPE_ID, WEB_SCOPE_ID } from '../types';
import { ChatPanel } from './chat-panel';

/**
 * /ask-needl/full: the assistant on a page of its own, asking over everything (or the web), or
 * in report mode over one report's files (`?report_id=`).
 */
export function AskNeedlPage() {
  const flags = useAskFlags();
  const chat = AskNeedlChat.useActorRef();
  const empty = AskNeedlChat.useSelector((s) => s.context.messages.length === 0);
  const scopeId = AskNeedlChat.useSelector((s) => s.context.scope.id);
  const restoring = AskNeedlChat.useSelector((s) => s.matches('restoring'));
  useReportModeFromAddress();

  useEffect(() => {
    if (empty && !restoring && scopeId !== HOME_SCOPE_ID && scopeId !== WEB_SCOPE_ID) {
      chat.send({ type: 'chat.setScope', scope: { type: 'feed', id: HOME_SCOPE_ID } });
    }
  }, [chat, empty, restoring, scopeId]);

  if (flags.loading) return <Spinner label="Loading AskNeedl" />;
  if (!flags.copilot) {
    return (
      <EmptyState title="AskNeedl is not turned on for you">
        <p>Ask your administrator to turn on the assistant.</p>
      </EmptyState>
    );
  }
  return (
    <div className="ask-page">
      <ChatPanel />
    </div>
  );
}
