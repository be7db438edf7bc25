import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { AskNeedlChat } from '../chat-context';
import { sameScope, scopeFromLocation } from '../scope';
import { ChatPanel } from './chat-panel';

/**
 * The assistant in the right-side overlay. It asks over where the user is (a feed, a channel,
 * a document's preview, else everything), taking the page's scope while the conversation is
 * empty; a running conversation keeps its scope as the user moves around.
 */
export function AskNeedlOverlayBody() {
  const location = useLocation();
  const chat = AskNeedlChat.useActorRef();
  const empty = AskNeedlChat.useSelector((s) => s.context.messages.length === 0);
  const current = AskNeedlChat.useSelector((s) => s.context.scope);
  const webSearch = AskNeedlChat.useSelector((s) => s.context.webSearch);
  const scope = useMemo(() => scopeFromLocation(location.pathname, new URLSearchParams(location.search)), [location.pathname, location.search]);

  useEffect(() => {
    if (empty && !webSearch && !sameScope(scope, current)) chat.send({ type: 'chat.setScope', scope });
  }, [chat, empty, webSearch, scope, current]);

  return <ChatPanel />;
}
