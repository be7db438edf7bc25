/** The phrases a generating report cycles through (every 2 s, then staying on the last). */

export const LOADING_PHRASES = [
  'Analyzing Your Inputs, Crafting Insights',
  'Building Context, Generating Relevant Keywords',
  'Tailoring Recommendations, Adding Sources',
  'Applying Final Touches',
] as const;

export const LOADING_PHRASE_MS = 2000;

/** Returns the phrase shown after `elapsedMs`: one per 2 s, staying on the last. */
export function loadingPhrase(elapsedMs: number): string {
  const step = Math.max(0, Math.floor(elapsedMs / LOADING_PHRASE_MS));
  return LOADING_PHRASES[Math.min(step, LOADING_PHRASES.length - 1)];
}
