import { useId, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { SentimentBadge } from '../../../components/ui/sentiment-badge';
import { useCardActions, type CardActionTarget } from '../../../lib/card-actions';
import { useCardDetails } from '../../../lib/card-details';
import { dateLine } from '../../../lib/format';
import { useSentimentShown } from '../../../lib/sentiment';
import type { SearchHit } from '../api/search-api';
import { stepHighlight } from '../pagination';
import { hitDate, hitSourceLabel, resultHref } from '../result-links';
import { HighlightText } from './highlight-text';
import { ParagraphPager } from './paragraph-pager';

/** How many words of a summary a card shows when the hit has no highlight. */
const SUMMARY_WORDS = 40;

const shortSummary = (text: string) => {
  const words = text.replace(/<[^>]*>/g, ' ').split(/\s+/).filter(Boolean);
  return words.length > SUMMARY_WORDS ? `${words.slice(0, SUMMARY_WORDS).join(' ')}…` : words.join(' ');
};

/** Returns whether a click landed on something of its own (a link, a button) rather than the card. */
const onControl = (event: MouseEvent) => (event.target as HTMLElement).closest('a, button, input, select, textarea') !== null;

/**
 * One search result: title (to the preview), source, date, tone (when the flag is on), and a
 * highlight with its matches marked; when there are several, a pager moves between them (← and →
 * do too, from the title).
 * Clicking anywhere on the card opens the preview, at the shown highlight's page for a PDF.
 * Below, what other features add to cards (src/lib/card-actions, src/lib/card-details).
 */
export function ResultCard({ hit, now }: { hit: SearchHit; now?: Date }) {
  const titleId = useId();
  const navigate = useNavigate();
  const [index, setIndex] = useState(0);
  const count = hit.highlights.length;
  const highlight = hit.highlights[index];
  const href = resultHref(hit, highlight);
  const date = hitDate(hit);
  const step = (delta: number) => setIndex((i) => stepHighlight(i, delta, count));
  const actions = useCardActions();
  const details = useCardDetails();
  const showTone = useSentimentShown();
  const target: CardActionTarget = {
    deeplink: hit.deeplink,
    source: hit.source,
    title: hit.title,
    link: hit.link ?? null,
    excerpt: highlight ? highlight.html.replace(/<[^>]*>/g, '') : (hit.summary ?? null),
    previewPath: href,
  };

  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || onControl(event) || window.getSelection()?.toString()) return;
    navigate(href);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (count < 2 || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    event.preventDefault();
    step(event.key === 'ArrowLeft' ? -1 : 1);
  };

  return (
    <article className="doc-card card search-card" aria-labelledby={titleId} data-testid="search-result" onClick={onClick}>
      <h3 id={titleId} className="doc-card-title">
        <Link to={href} data-result-link="" onKeyDown={onKeyDown}>
          {hit.title}
        </Link>
      </h3>
      <p className="doc-card-meta small muted">
        <span className="doc-card-source">{hitSourceLabel(hit)}</span>
        {hit.author && <span>{hit.author}</span>}
        {date && <time dateTime={date}>{dateLine(date, now)}</time>}
        {showTone && <SentimentBadge sentiment={hit.sentiment} />}
      </p>
      {highlight ? (
        <p className="search-highlight" data-testid="search-highlight">
          <HighlightText html={highlight.html} />
          {highlight.page && <span className="small muted"> (page {highlight.page})</span>}
        </p>
      ) : (
        hit.summary && <p className="doc-card-summary">{shortSummary(hit.summary)}</p>
      )}
      {count > 1 && <ParagraphPager index={index} count={count} onStep={step} subject={hit.title} />}
      {details.map((Detail, i) => (
        <Detail key={i} target={target} />
      ))}
      {actions.length > 0 && (
        <div className="doc-card-actions">
          {actions.map((Action, i) => (
            <Action key={i} target={target} />
          ))}
        </div>
      )}
    </article>
  );
}
