import type { ReactNode } from 'react';
import { Modal } from './modal';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** Cancel, Escape. */
  onCancel: () => void;
  pending?: boolean;
  /** What the confirm button says while pending ("Erasing…"); "Working…" when absent. */
  pendingLabel?: string;
}

/** Asks before something that cannot be undone; the confirm button is styled as dangerous. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel, pending = false, pendingLabel = 'Working…' }: ConfirmDialogProps) {
  return (
    <Modal
      title={title}
      size="small"
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={onConfirm} disabled={pending}>
            {pending ? pendingLabel : confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
