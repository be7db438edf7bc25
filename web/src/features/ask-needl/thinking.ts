/**
 * The waiting helper: while a question waits for its answer the text cycles through the spec's
 * phrases with one to three trailing dots. The chat machine counts ticks; this turns a count
 * into the text, so the timing is tested as arithmetic.
 */
import { THINKING_PHRASES } from './messages';

/** One tick of the dots. */
export const THINKING_TICK_MS = 500;
/** How long each phrase lasts before the next (the last stays). */
export const THINKING_PHRASE_MS = 12_000;
export const MAX_DOTS = 3;

/** Returns the helper text after `ticks` ticks of 500 ms. */
export function thinkingText(ticks: number): string {
  const elapsed = Math.max(0, ticks) * THINKING_TICK_MS;
  const phrase = THINKING_PHRASES[Math.min(Math.floor(elapsed / THINKING_PHRASE_MS), THINKING_PHRASES.length - 1)];
  const dots = (Math.max(0, ticks) % MAX_DOTS) + 1;
  return `${phrase}${'.'.repeat(dots)}`;
}
