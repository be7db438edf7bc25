import { PlanActionLink } from '../../../components/plan-prompt';
import type { PlanPrompt } from '../../../lib/pricing';

/**
 * Says the plan does not include something, in place of the thing itself (a page reached by its
 * address): the prompt's header, body, subtext and footer action.
 */
export function PlanNotice({ prompt, what }: { prompt: PlanPrompt; what: string }) {
  return (
    <section className="plan-notice card stack" role="alert">
      <h2>{prompt.header}</h2>
      <p>{prompt.message}</p>
      <p className="small muted">{prompt.subtext ?? `${what} is not part of your current plan.`}</p>
      <div>
        <PlanActionLink action={prompt.action} />
      </div>
    </section>
  );
}
