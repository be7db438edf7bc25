import { pagerText } from '../pagination';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/ui/icons';

export interface ParagraphPagerProps {
  index: number;
  count: number;
  onStep: (delta: number) => void;
  /** What the highlights are of (the result's title), for screen readers. */
  subject: string;
}

/** "‹ 1 of 3 ›": steps through the highlights of one result. */
export function ParagraphPager({ index, count, onStep, subject }: ParagraphPagerProps) {
  return (
    <div className="paragraph-pager" role="group" aria-label={`Highlights in ${subject}`}>
      <button type="button" className="icon-button" aria-label="Previous highlight" disabled={index <= 0} onClick={() => onStep(-1)}>
        <ChevronLeftIcon size={18} />
      </button>
      <span className="paragraph-pager-text small" aria-live="polite" data-testid="paragraph-pager">
        {pagerText(index, count)}
      </span>
      <button type="button" className="icon-button" aria-label="Next highlight" disabled={index >= count - 1} onClick={() => onStep(1)}>
        <ChevronRightIcon size={18} />
      </button>
    </div>
  );
}
