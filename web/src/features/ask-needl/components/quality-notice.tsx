import { GENERATIVE_QUALITY, LOW_QUALITY } from '../messages';
import type { AnswerData } from '../types';

/** The notice under an answer of LOW or GENERATIVE quality; the server's text when it sent one. */
export function QualityNotice({ data }: { data: AnswerData }) {
  const quality = String(data.answer_quality ?? '').toUpperCase();
  if (quality !== 'LOW' && quality !== 'GENERATIVE') return null;
  const message = data.answer_quality_message || (quality === 'LOW' ? LOW_QUALITY : GENERATIVE_QUALITY);
  return (
    <p className={`ask-quality ask-quality-${quality.toLowerCase()}`} role="note" data-testid="answer-quality">
      {quality === 'LOW' && <span className="badge badge-warning">Low</span>} {message}
    </p>
  );
}
