import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { StarIcon } from '../../../components/ui/icons';
import { useRateReport } from '../hooks/use-report-actions';

const STARS = [1, 2, 3, 4, 5] as const;

export interface FeedbackFormProps {
  reportId: string;
  savedRating: number | null | undefined;
  savedComments: string | null | undefined;
}

/** Returns whether the form differs from what is saved (Submit is enabled only then). */
export const feedbackChanged = (rating: number | null, comments: string, savedRating?: number | null, savedComments?: string | null) =>
  rating !== (savedRating ?? null) || comments !== (savedComments ?? '');

/**
 * The report's feedback: a rating of 1 to 5 stars and comments. Submit stays disabled until the
 * rating or the comments differ from the saved ones; the result is a toast.
 */
export function FeedbackForm({ reportId, savedRating, savedComments }: FeedbackFormProps) {
  const [rating, setRating] = useState<number | null>(savedRating ?? null);
  const [comments, setComments] = useState(savedComments ?? '');
  const rate = useRateReport(reportId);
  const changed = feedbackChanged(rating, comments, savedRating, savedComments);
  const stars = useRef<HTMLDivElement>(null);

  /** Arrow keys move the rating as in any radio group, focus following it. */
  const onStarKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' || event.key === 'ArrowUp' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowDown' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = Math.min(STARS.length, Math.max(1, (rating ?? 0) + step));
    setRating(next);
    stars.current?.querySelectorAll<HTMLButtonElement>('[role="radio"]')[next - 1]?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) rate.mutate({ rating, comments });
  };

  return (
    <form className="report-feedback stack" onSubmit={submit} aria-label="Feedback">
      <h3 className="report-panel-title">Feedback</h3>
      <div role="radiogroup" aria-label="Rating" className="report-stars" ref={stars} onKeyDown={onStarKey}>
        {STARS.map((n) => (
          <button
            key={n}
            type="button"
            role="radio"
            aria-checked={rating === n}
            tabIndex={rating === n || (rating === null && n === 1) ? 0 : -1}
            aria-label={`${n} star${n > 1 ? 's' : ''}`}
            className="icon-button report-star"
            data-on={rating !== null && n <= rating ? '' : undefined}
            onClick={() => setRating(rating === n ? null : n)}
          >
            <StarIcon size={22} />
          </button>
        ))}
      </div>
      <label className="field">
        <span className="field-label">Comments</span>
        <textarea className="input report-comments" value={comments} onChange={(e) => setComments(e.target.value)} />
      </label>
      <button type="submit" className="button button-primary" disabled={!changed || rate.isPending}>
        Submit
      </button>
    </form>
  );
}
