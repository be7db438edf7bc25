import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { AskNeedlChat } from '../chat-context';
import { useReportModeBesidePage } from '../hooks/use-report-mode';
import { sameScope, scopeFromLocation } from '../scope';
import { ChatPanel } from './chat-panel';

/**
 * The assistant in the right-side overlay. It asks over where the user is (a feed, a channel,
 * a document's preview, else everything), taking the page's scope while the conversation is
 * empty; a running conversation keeps its scope as the user moves around. Beside a report's page
 * it is in report mode over that report's files, on the same terms.
 */
export function AskNeedlOverlayBody() {
  const location = useLocation();
  const chat = AskNeedlChat.useActorRef();
  const empty = AskNeedlChat.useSelector((s) => s.context.messages.length === 0);
  const current = AskNeedlChat.useSelector((s) => s.context.scope);
  const webSearch = AskNeedlChat.useSelector((s) => s.context.webSearch);
  const restoring = AskNeedlChat.useSelector((s) => s.matches('restoring'));
  useReportModeBesidePage();
  const scope = useMemo(() => scopeFromLocation(location.pathname, new URLSearchParams(location.search)), [location.pathname, location.search]);

  useEffect(() => {
    if (empty && !restoring && !webSearch && !sameScope(scope, current)) chat.send({ type: 'chat.setScope', scope });
  }, [chat, empty, restoring, webSearch, scope, current]);

  return <ChatPanel />;
}
