import { Modal } from '../../../components/ui/modal';

/** Says the plan does not include something, in place of the thing itself. */
export function PlanNotice({ message, what }: { message: string; what: string }) {
  return (
    <section className="plan-notice card stack" role="alert">
      <h2>Upgrade your plan</h2>
      <p>{message}</p>
      <p className="small muted">{what} is not part of your current plan.</p>
    </section>
  );
}

/** The pricing prompt as a modal, opened instead of a gated action. */
export function PlanPrompt({ message, what, onClose }: { message: string; what: string; onClose: () => void }) {
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
      <p className="small muted">{what} is not part of your current plan.</p>
    </Modal>
  );
}
