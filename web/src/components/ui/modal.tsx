import { useEffect, useId, useRef, type ReactNode } from 'react';

/** Modal widths from the spec, each capped at 90% of the screen. */
export type ModalSize = 'small' | 'default' | 'large' | 'xl';

export interface ModalProps {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  size?: ModalSize;
  /** Called on Escape; a modal without it cannot be dismissed that way. */
  onClose?: () => void;
}

/** A dialog that takes focus when it opens and keeps the page behind it inert. */
export function Modal({ title, children, actions, size = 'default', onClose }: ModalProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className={`modal modal-${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && onClose) {
            event.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        <div className="modal-body">{children}</div>
        {actions && <div className="modal-actions">{actions}</div>}
      </div>
    </div>
  );
}
