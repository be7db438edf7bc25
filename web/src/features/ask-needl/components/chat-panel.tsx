import { AskNeedlChat } from '../chat-context';
import { DROP_FILES } from '../messages';
import { useChatAttachments } from './chat-attachments';
import { ChatInput } from './chat-input';
import { ChatToolbar } from './chat-toolbar';
import { MessageList } from './message-list';
import { Suggestions } from './suggestions';

/**
 * The chat screen: controls, the conversation (or, empty, a welcome and suggestions), the
 * attachments and the input. Files dropped anywhere on it are attached, where the rules allow.
 */
export function ChatPanel({ historyHref }: { historyHref?: string }) {
  const empty = AskNeedlChat.useSelector((s) => s.context.messages.length === 0);
  const webSearch = AskNeedlChat.useSelector((s) => s.context.webSearch);
  const attachments = useChatAttachments();
  return (
    <section className="ask-panel" aria-label="AskNeedl" data-testid="ask-panel" {...attachments?.dropHandlers}>
      {attachments?.dragging && (
        <div className="ask-drop" aria-hidden="true">
          {DROP_FILES}
        </div>
      )}
      <ChatToolbar historyHref={historyHref} />
      {empty ? (
        <div className="ask-welcome">
          <h2>What would you like to know?</h2>
          <p className="muted">
            {webSearch ? 'Answers come from the public web, with numbered sources.' : 'Ask about your data; answers cite their sources with numbers.'}
          </p>
          <Suggestions />
        </div>
      ) : (
        <MessageList />
      )}
      {attachments?.area}
      <ChatInput blocked={attachments?.blocked} extra={attachments?.button} />
    </section>
  );
}
