import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { copyText } from '../../../lib/clipboard';
import { notify } from '../../../lib/notices';
import type { ToastMeta } from '../../../lib/query-client';
import { sendFeedback, type Feedback } from '../api/ask-api';
import { citationLine } from '../citations';
import { COPIED, FEEDBACK_THANKS, GENERIC_ERROR } from '../messages';
import type { AnswerData } from '../types';
import { ThumbsDownIcon, ThumbsUpIcon } from '../../../components/ui/icons';

/** Returns an answer as copied: its text, then its sources as "label: link" lines. */
export function copiedAnswer(data: AnswerData): string {
  const sources = data.retrieved_results.map(citationLine);
  return [data.generated_answer.answer.trim(), sources.length ? `Sources:\n${sources.join('\n')}` : ''].filter(Boolean).join('\n\n');
}

/** Copy and thumbs up / down under an answer. */
export function AnswerActions({ data }: { data: AnswerData }) {
  const [selected, setSelected] = useState<Feedback | null>(null);
  const feedback = useMutation({
    meta: { successToast: FEEDBACK_THANKS, errorToast: GENERIC_ERROR } satisfies ToastMeta,
    mutationFn: (value: Feedback) => sendFeedback(data.message_id ?? '', value),
    onMutate: (value) => setSelected(value),
    onError: () => setSelected(null),
  });
  const copy = () =>
    copyText(copiedAnswer(data)).then(
      () => notify({ type: 'success', message: COPIED, duration: 1000 }),
      () => notify({ type: 'error', message: GENERIC_ERROR }),
    );
  const vote = (value: Feedback) => feedback.mutate(value);

  return (
    <div className="ask-answer-actions" role="group" aria-label="Answer actions">
      <button type="button" className="button button-quiet button-small" onClick={() => void copy()}>
        Copy
      </button>
      {data.message_id && (
        <>
          <button
            type="button"
            className="icon-button"
            aria-label="Good answer"
            aria-pressed={selected === 'CORRECT'}
            disabled={feedback.isPending}
            onClick={() => vote('CORRECT')}
          >
            <ThumbsUpIcon size={18} />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label="Bad answer"
            aria-pressed={selected === 'INCORRECT'}
            disabled={feedback.isPending}
            onClick={() => vote('INCORRECT')}
          >
            <ThumbsDownIcon size={18} />
          </button>
        </>
      )}
    </div>
  );
}
