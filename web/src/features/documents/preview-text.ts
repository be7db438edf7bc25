/** Text helpers for document previews. */

export const PREVIEW_WORDS = 100;

/**
 * Returns `text` cut at `limit` words, with '…' when something was cut. Markup that a feed put
 * in its summary is dropped and runs of whitespace are collapsed.
 */
export function cutWords(text: string | null | undefined, limit = PREVIEW_WORDS): string {
  if (!text) return '';
  const words = text.replace(/<[^>]*>/g, ' ').split(/\s+/).filter(Boolean);
  if (words.length <= limit) return words.join(' ');
  return `${words.slice(0, limit).join(' ')}…`;
}
