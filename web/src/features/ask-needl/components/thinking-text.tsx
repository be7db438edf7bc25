import { AskNeedlChat } from '../chat-context';
import { thinkingText } from '../thinking';

/** The waiting helper ('Thinking.', 'Exploring insights..', …) while a question waits. */
export function ThinkingText() {
  const ticks = AskNeedlChat.useSelector((s) => s.context.ticks);
  return (
    <p className="ask-thinking muted" data-testid="ask-thinking">
      {thinkingText(ticks)}
    </p>
  );
}
