import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { AskNeedlChat } from '../chat-context';
import { chatStatus } from '../chat.machine';
import { DISCLAIMER, PLACEHOLDER_FIRST, PLACEHOLDER_FOLLOW_UP } from '../messages';

/**
 * The question box: Enter sends, Shift+Enter starts a new line, Escape stops the answer being
 * written. While an answer runs, Send gives way to Stop. `blocked` holds sending back (uploads
 * not finished); `extra` holds the attach control. The disclaimer sits under it.
 */
export function ChatInput({ blocked = false, extra }: { blocked?: boolean; extra?: ReactNode }) {
  const chat = AskNeedlChat.useActorRef();
  const status = AskNeedlChat.useSelector(chatStatus);
  const hasMessages = AskNeedlChat.useSelector((s) => s.context.messages.length > 0);
  const [prompt, setPrompt] = useState('');
  const hintId = useId();
  const running = status === 'loading' || status === 'streaming';
  const canSend = prompt.trim().length > 0 && !blocked && status !== 'loading';

  const send = () => {
    if (!canSend) return;
    chat.send({ type: 'chat.send', prompt });
    setPrompt('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape' && running) {
      event.preventDefault();
      chat.send({ type: 'chat.stop' });
    }
  };

  return (
    <form className="ask-input" onSubmit={onSubmit} aria-label="Ask AskNeedl">
      <div className="ask-input-row">
        {extra}
        <textarea
          className="input ask-textarea"
          aria-label="Your question"
          aria-describedby={hintId}
          placeholder={hasMessages ? PLACEHOLDER_FOLLOW_UP : PLACEHOLDER_FIRST}
          rows={2}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {running ? (
          <button type="button" className="button" onClick={() => chat.send({ type: 'chat.stop' })}>
            Stop generating
          </button>
        ) : (
          <button type="submit" className="button button-primary" disabled={!canSend}>
            Send
          </button>
        )}
      </div>
      <p id={hintId} className="visually-hidden">
        Enter sends, Shift+Enter adds a line, Escape stops the answer.
      </p>
      <p className="ask-disclaimer small muted">{DISCLAIMER}</p>
    </form>
  );
}
