import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { pricingQueries, type PlanAction, type PlanPrompt } from '../lib/pricing';
import { Modal } from './ui/modal';

/** Where the storage and feed-manager actions lead, and the Plan page the upgrade falls back to. */
export const PLAN_ACTION_PATHS = { storage: '/settings/storage', feed_manager: '/settings/feeds', upgrade: '/settings/plan' } as const;

const LABELS: Record<PlanAction, string> = { storage: 'Manage storage', feed_manager: 'Manage feeds', upgrade: 'See your plan' };

/**
 * The pricing prompt's footer action: to the storage page, to the feed manager, or to upgrade,
 * which is the billing portal (in a new tab) when the instance has one, else the Plan page.
 * `onFollow` runs as it is followed (the modal closes).
 */
export function PlanActionLink({ action, onFollow, className = 'button button-primary' }: { action: PlanAction; onFollow?: () => void; className?: string }) {
  const plan = useQuery({ ...pricingQueries.userPlan(), enabled: action === 'upgrade' });
  const portal = action === 'upgrade' ? plan.data?.billing_portal_url : null;
  if (portal) {
    return (
      <a href={portal} target="_blank" rel="noopener" className={className} onClick={onFollow}>
        Upgrade
      </a>
    );
  }
  return (
    <Link to={PLAN_ACTION_PATHS[action]} className={className} onClick={onFollow}>
      {LABELS[action]}
    </Link>
  );
}

/** The pricing prompt as a modal, opened instead of a gated action: header, body, subtext and the footer action. */
export function PlanPromptDialog({ prompt, onClose }: { prompt: PlanPrompt; onClose: () => void }) {
  return (
    <Modal
      title={prompt.header}
      size="small"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <PlanActionLink action={prompt.action} onFollow={onClose} />
        </>
      }
    >
      <p>{prompt.message}</p>
      {prompt.subtext && <p className="small muted">{prompt.subtext}</p>}
    </Modal>
  );
}
