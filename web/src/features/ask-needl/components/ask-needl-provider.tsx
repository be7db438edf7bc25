import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { userQueries } from '../../../lib/queries/user-queries';
import { AskNeedlChat } from '../chat-context';
import { useAskFlags } from '../hooks/use-ask-flags';
import { readLastSession } from '../last-session';

/** Keeps the chat's settings in step with the user's flags and the AskNeedl Pro preference. */
function SyncSettings() {
  const chat = AskNeedlChat.useActorRef();
  const flags = useAskFlags();
  const preferences = useQuery(userQueries.preferences());
  const pro = flags.pro && Boolean(preferences.data?.askneedl_pro);

  useEffect(() => {
    chat.send({ type: 'chat.setHistory', enabled: flags.history });
  }, [chat, flags.history]);
  useEffect(() => {
    chat.send({ type: 'chat.setPro', pro });
  }, [chat, pro]);
  return null;
}

/**
 * Holds the app's conversation with the assistant above the pages, so the overlay, the full
 * page and history share it and it survives moving between pages; after a reload it brings back
 * the tab's last active session.
 */
export function AskNeedlProvider({ children }: { children: ReactNode }) {
  const [options] = useState(() => ({ input: { lastSessionId: readLastSession() } }));
  return (
    <AskNeedlChat.Provider options={options}>
      <SyncSettings />
      {children}
    </AskNeedlChat.Provider>
  );
}
