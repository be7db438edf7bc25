import { useEffect, useRef } from 'react';
import { AskNeedlChat } from '../chat-context';
import { BotMessage } from './bot-message';

/** The conversation, oldest first, kept scrolled to the newest message as it grows. */
export function MessageList() {
  const messages = AskNeedlChat.useSelector((s) => s.context.messages);
  const activeBotId = AskNeedlChat.useSelector((s) => (s.matches('asking') ? s.context.activeBotId : null));
  const end = useRef<HTMLDivElement>(null);
  const lastBot = [...messages].reverse().find((m) => m.type === 'bot');

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages]);

  return (
    <div className="ask-messages" role="log" aria-label="Conversation">
      {messages.map((message) =>
        message.type === 'user' ? (
          <div key={message.id} className="ask-message ask-message-user" data-testid="ask-question">
            <p>{message.prompt}</p>
            {message.attachments && message.attachments.length > 0 && (
              <p className="small muted">Attached: {message.attachments.map((a) => a.name).join(', ')}</p>
            )}
          </div>
        ) : (
          <BotMessage key={message.id} message={message} active={message.id === activeBotId} last={message.id === lastBot?.id} />
        ),
      )}
      <div ref={end} />
    </div>
  );
}
