import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CardActionTarget } from '../../../lib/card-actions';
import { showPlanPrompt } from '../../../lib/plan-prompts';
import { usePlanCheck } from '../../../lib/pricing';
import { featureQueries } from '../../../lib/queries/feature-queries';
import { AddToNotesDialog } from './add-to-notes-dialog';
import { CardLayer } from './card-layer';

/**
 * Add to Notes on a document card or search result: shown only with the `notebooks` flag; the
 * plan check comes first (a prompt instead of the picker when the plan does not include it).
 */
export function AddToNotesButton({ target }: { target: CardActionTarget }) {
  const enabled = useQuery(featureQueries.config()).data?.features.notebooks === true;
  const plan = usePlanCheck('add_notebook');
  const [open, setOpen] = useState(false);
  if (!enabled) return null;
  const close = () => setOpen(false);
  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        aria-label={`Add to Notes: ${target.title}`}
        disabled={plan.status === 'checking'}
        onClick={() => (plan.status === 'ineligible' ? showPlanPrompt(plan) : setOpen(true))}
      >
        Add to Notes
      </button>
      {open && plan.status === 'eligible' && (
        <CardLayer>
          <AddToNotesDialog target={target} onClose={close} />
        </CardLayer>
      )}
    </>
  );
}
