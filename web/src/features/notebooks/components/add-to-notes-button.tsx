import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import type { CardActionTarget } from '../../../lib/card-actions';
import { usePlanCheck } from '../../../lib/pricing';
import { featureQueries } from '../../../lib/queries/feature-queries';
import { AddToNotesDialog } from './add-to-notes-dialog';
import { CardLayer } from './card-layer';

/** The pricing prompt shown instead of the picker when the plan does not include notes. */
function PlanPrompt({ message, onClose }: { message: string; onClose: () => void }) {
  return (
    <Modal
      title="Upgrade your plan"
      size="small"
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      }
    >
      <p>{message}</p>
      <p className="small muted">Adding to notes is not part of your current plan.</p>
    </Modal>
  );
}

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
        onClick={() => setOpen(true)}
      >
        Add to Notes
      </button>
      {open && plan.status !== 'checking' && (
        <CardLayer>
          {plan.status === 'eligible' ? (
            <AddToNotesDialog target={target} onClose={close} />
          ) : (
            <PlanPrompt message={plan.message} onClose={close} />
          )}
        </CardLayer>
      )}
    </>
  );
}
