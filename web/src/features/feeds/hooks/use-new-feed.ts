import { useCallback } from 'react';
import { showPlanPrompt } from '../../../lib/plan-prompts';
import { usePlanCheck, type PlanCheck } from '../../../lib/pricing';
import { useOpenBuilder } from './use-open-builder';

/**
 * Returns New feed: the builder on its first page, or, when the plan does not include another
 * feed, the pricing prompt instead; and the plan check, to wait while it is asked.
 */
export function useNewFeed(): { newFeed: () => void; plan: PlanCheck } {
  const openBuilder = useOpenBuilder();
  const plan = usePlanCheck('add_feed');
  const newFeed = useCallback(() => {
    if (plan.status === 'ineligible') showPlanPrompt(plan);
    else openBuilder('select-feed-type');
  }, [openBuilder, plan]);
  return { newFeed, plan };
}
