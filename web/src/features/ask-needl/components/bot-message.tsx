import { lazy, Suspense } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { ANSWER_FAILED } from '../messages';
import type { BotMessage as Bot } from '../types';
import { AnswerActions } from './answer-actions';
import { FollowUps } from './follow-ups';
import { QualityNotice } from './quality-notice';
import { SearchAnswer } from './search-answer';
import { ThinkingText } from './thinking-text';

/** The markdown renderer loads with the first answer, in its own chunk. */
const AnswerMarkdown = lazy(() => import('./answer-markdown').then((m) => ({ default: m.AnswerMarkdown })));

/**
 * One answer: while waiting, the steps and the thinking phrase; while streaming, the text so far
 * (announced politely to screen readers); once done, the markdown with citations, the quality
 * notice, copy and feedback, and the follow-up questions. Stopped and failed answers say so.
 */
export function BotMessage({ message, active, last }: { message: Bot; active: boolean; last: boolean }) {
  const { data } = message;
  const waiting = active && !data && !message.streamingAnswer && !message.error && !message.generatingStopped;
  const streaming = active && !data && Boolean(message.streamingAnswer) && !message.generatingStopped;
  const text = data?.generated_answer.answer ?? message.streamingAnswer;

  return (
    <article className="ask-message ask-message-bot" aria-label="AskNeedl's answer" data-testid="ask-answer">
      {message.intermediateSteps.length > 0 && !data && (
        <ul className="ask-steps small muted" aria-label="Progress">
          {message.intermediateSteps.map((step, i) => (
            <li key={i} data-loading={step.loading}>
              {step.loading && <Spinner label={step.text} />} {step.text}
            </li>
          ))}
        </ul>
      )}
      {waiting && <ThinkingText />}
      <div className="ask-answer-text" aria-live="polite" aria-busy={streaming}>
        {data?.answer_type === 'SEARCH' ? (
          <SearchAnswer data={data} />
        ) : (
          text && (
            <Suspense fallback={<p className="answer-plain">{text}</p>}>
              <AnswerMarkdown text={text} citations={data?.retrieved_results ?? []} streaming={!data} />
            </Suspense>
          )
        )}
      </div>
      {message.generatingStopped && !data && <p className="small muted">Generation stopped.</p>}
      {message.error && (
        <p className="form-error" role="alert">
          {ANSWER_FAILED}
        </p>
      )}
      {data && (
        <>
          <QualityNotice data={data} />
          {data.pro && <span className="badge badge-pro">PRO</span>}
          <AnswerActions data={data} />
          {last && <FollowUps questions={data.followup_questions} />}
        </>
      )}
    </article>
  );
}
