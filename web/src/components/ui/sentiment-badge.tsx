import type { Sentiment } from '../../lib/sentiment';
import { TrendingDownIcon, TrendingUpIcon } from './icons';

/** The tones shown; a neutral one, or a label this app does not know, shows nothing. */
const TONES = new Map([
  ['positive', { label: 'positive', text: 'Positive', Icon: TrendingUpIcon }],
  ['negative', { label: 'negative', text: 'Negative', Icon: TrendingDownIcon }],
]);

/**
 * A card's tone as a small badge: an icon and "Positive" or "Negative"; nothing for a neutral
 * tone or none. Screen readers hear "Tone: positive"; the tooltip says where the tone comes from.
 */
export function SentimentBadge({ sentiment }: { sentiment: Sentiment | null | undefined }) {
  const tone = sentiment ? TONES.get(sentiment.label) : undefined;
  if (!tone) return null;
  const { label, text, Icon } = tone;
  return (
    <span
      className="badge sentiment-badge"
      data-tone={label}
      data-testid="sentiment-badge"
      role="img"
      aria-label={`Tone: ${label}`}
      title="From the headline's wording"
    >
      <Icon size={14} aria-hidden="true" />
      {text}
    </span>
  );
}
