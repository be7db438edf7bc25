/** Text helpers for document previews. */

export const PREVIEW_WORDS = 100;

/**
 * Returns `text` cut at `limit` words, with '…' when something was cut. Markup that a feed put
 * in its summary is dropped and runs of whitespace are collapsed.
 */
export function cutWords(text: string | null | undefined, limit = PREVIEW_WORDS): string {
  const words = plainText(text).split(' ').filter(Boolean);
  if (words.length <= limit) return words.join(' ');
  return `${words.slice(0, limit).join(' ')}…`;
}

/** Returns `text` without the markup a feed put in it, runs of whitespace collapsed. */
export function plainText(text: string | null | undefined): string {
  if (!text) return '';
  return text.replace(/<[^>]*>/g, ' ').split(/\s+/).filter(Boolean).join(' ');
}

/**
 * Returns what a card shows of a document's text. The spec cuts previews at 100 words except
 * for websites and RSS, whose summaries the publisher already wrote as previews: those are
 * shown whole (the card clamps them to a few lines).
 */
export function cardPreview(text: string | null | undefined, { whole }: { whole: boolean }): string {
  return whole ? plainText(text) : cutWords(text);
}
