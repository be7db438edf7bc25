import { useEffect, useState } from 'react';
import { PlanPromptDialog } from '../components/plan-prompt';
import { matches, MOBILE_QUERY } from '../lib/media';
import { isNative } from '../lib/native-bridge';
import { onPlanPrompt } from '../lib/plan-prompts';
import type { PlanPrompt } from '../lib/pricing';
import { useToast } from './toast-context';

/**
 * Shows the pricing prompts that gated actions and refused writes ask for (src/lib/plan-prompts):
 * a modal, or on a phone or inside the native app, where the spec shows no modal, a toast with
 * the message.
 */
export function PlanPromptHost() {
  const toast = useToast();
  const [shown, setShown] = useState<{ prompt: PlanPrompt; n: number } | null>(null);

  useEffect(
    () =>
      onPlanPrompt((prompt) => {
        if (matches(MOBILE_QUERY) || isNative()) toast.error(prompt.message);
        else setShown((before) => ({ prompt, n: (before?.n ?? 0) + 1 }));
      }),
    [toast],
  );

  if (!shown) return null;
  // A new prompt is a new dialog: it takes focus again.
  return <PlanPromptDialog key={shown.n} prompt={shown.prompt} onClose={() => setShown(null)} />;
}
