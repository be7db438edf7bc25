/**
 * Pricing prompts: a gated action the plan does not include asks for the prompt here, and so
 * does the query client when the server refuses a write for the plan. The app shows it (a modal,
 * or a toast on a phone). Like notices, this keeps features free of the app's UI.
 */
import type { PlanPrompt } from './pricing';

type Listener = (prompt: PlanPrompt) => void;

const listeners = new Set<Listener>();

/** Shows the pricing prompt wherever the app listens; with no listener it is only logged. */
export function showPlanPrompt(prompt: PlanPrompt): void {
  if (listeners.size === 0) console.warn('plan prompt with no listener:', prompt.message);
  listeners.forEach((listener) => listener(prompt));
}

/** Listens for pricing prompts; returns the function that stops listening. */
export function onPlanPrompt(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
