import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

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

/** What Tab can reach inside the dialog. */
const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

/** Keeps Tab and Shift+Tab going round the dialog's controls instead of out to the page behind it. */
function keepTabInside(event: KeyboardEvent<HTMLDivElement>) {
  const dialog = event.currentTarget;
  const tabbable = [...dialog.querySelectorAll<HTMLElement>(TABBABLE)];
  const first = tabbable[0];
  const last = tabbable.at(-1);
  const active = document.activeElement;
  if (!first || !last) {
    event.preventDefault();
  } else if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A dialog over the page: it takes focus when it opens (unless a field in it took it first, with
 * `autoFocus`), Tab stays within it, the backdrop keeps the pointer off the page behind it, and
 * focus goes back to where it was (the button that opened it) when it closes.
 */
export function Modal({ title, children, actions, size = 'default', onClose }: ModalProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // Read while rendering, before a field's autoFocus moves focus into the dialog.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    if (!ref.current?.contains(document.activeElement)) ref.current?.focus();
    return () => {
      // The opener may have gone with what the dialog did (a deleted row); then the page keeps focus.
      if (opener?.isConnected) opener.focus();
    };
  }, [opener]);
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
          } else if (event.key === 'Tab') {
            keepTabInside(event);
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
