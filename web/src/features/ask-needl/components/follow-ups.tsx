import { AskNeedlChat } from '../chat-context';

/** Suggested questions as chips; choosing one asks it. */
export function FollowUps({ questions, label = 'Suggested follow-up questions' }: { questions: readonly string[]; label?: string }) {
  const chat = AskNeedlChat.useActorRef();
  if (questions.length === 0) return null;
  return (
    <ul className="ask-chips" aria-label={label}>
      {questions.map((question) => (
        <li key={question}>
          <button type="button" className="ask-chip" onClick={() => chat.send({ type: 'chat.send', prompt: question })}>
            {question}
          </button>
        </li>
      ))}
    </ul>
  );
}
