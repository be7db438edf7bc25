import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ToastMeta } from '../../../lib/query-client';
import { saveConversationToNote, type ConversationTurn } from '../api/ask-api';
import { AskNeedlChat } from '../chat-context';
import { sessionTitle } from '../chat.machine';
import { citationLine } from '../citations';
import { useAskFlags } from '../hooks/use-ask-flags';
import { GENERIC_ERROR, SAVED_TO_NOTE } from '../messages';
import type { ChatMessage } from '../types';

/** Returns a conversation's answered turns, as a note keeps them. */
export function conversationTurns(messages: readonly ChatMessage[]): ConversationTurn[] {
  return messages.flatMap((m) =>
    m.type === 'bot' && m.data
      ? [{ prompt: m.prompt, answer: m.data.generated_answer.answer, citations: m.data.retrieved_results.map(citationLine) }]
      : [],
  );
}

/**
 * The assistant's header controls: new chat, history (ask_needl_history), web search and PRO
 * (ask_needl_pro), which change only while the conversation is empty, search mode (documents
 * rather than an answer), and save to note (notebooks, from two messages on).
 */
export function ChatToolbar({ historyHref = '/ask-needl/history' }: { historyHref?: string }) {
  const chat = AskNeedlChat.useActorRef();
  const messages = AskNeedlChat.useSelector((s) => s.context.messages);
  const webSearch = AskNeedlChat.useSelector((s) => s.context.webSearch);
  const pro = AskNeedlChat.useSelector((s) => s.context.pro);
  const searchMode = AskNeedlChat.useSelector((s) => s.context.searchMode);
  const flags = useAskFlags();
  const empty = messages.length === 0;
  const save = useMutation({
    meta: { successToast: SAVED_TO_NOTE, errorToast: GENERIC_ERROR } satisfies ToastMeta,
    mutationFn: () => saveConversationToNote(sessionTitle(messages), conversationTurns(messages)),
  });
  const lockedHint = empty ? undefined : 'Start a new chat to change this';

  return (
    <div className="ask-toolbar" role="toolbar" aria-label="AskNeedl controls">
      <button type="button" className="button button-quiet button-small" onClick={() => chat.send({ type: 'chat.new' })} disabled={empty}>
        New chat
      </button>
      {flags.history && (
        <Link className="button button-quiet button-small" to={historyHref}>
          History
        </Link>
      )}
      {flags.webScope && (
        <button
          type="button"
          className="button button-quiet button-small"
          aria-pressed={webSearch}
          disabled={!empty}
          title={lockedHint}
          onClick={() => chat.send({ type: 'chat.toggleWeb' })}
        >
          Web search
        </button>
      )}
      {flags.pro && (
        <button
          type="button"
          className="button button-quiet button-small badge-pro-toggle"
          aria-pressed={pro}
          aria-label="PRO mode"
          disabled={!empty}
          title={lockedHint}
          onClick={() => chat.send({ type: 'chat.togglePro' })}
        >
          PRO
        </button>
      )}
      <button type="button" className="button button-quiet button-small" aria-pressed={searchMode} onClick={() => chat.send({ type: 'chat.toggleSearch' })}>
        Search mode
      </button>
      {flags.notebooks && messages.length >= 2 && (
        <button type="button" className="button button-quiet button-small" disabled={save.isPending || conversationTurns(messages).length === 0} onClick={() => save.mutate()}>
          Save to note
        </button>
      )}
    </div>
  );
}
