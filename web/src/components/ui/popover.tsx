import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface PopoverProps {
  /** What the trigger button shows; its accessible name unless `triggerLabel` is given. */
  trigger: ReactNode;
  /** The trigger's accessible name, when its content is not enough (an icon, a count). */
  triggerLabel?: string;
  triggerClassName?: string;
  /** The panel's accessible name. */
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  disabled?: boolean;
  /** The panel's content; it mounts when the popover opens. */
  children: ReactNode;
  className?: string;
}

/**
 * A button that opens a small non-modal panel beside it. Escape and a press outside close it;
 * Escape gives focus back to the button. Clicks inside do not reach what holds it (a card that
 * opens on click).
 */
export function Popover({ trigger, triggerLabel, triggerClassName = 'button button-quiet', title, open, onOpenChange, disabled, children, className = '' }: PopoverProps) {
  const panelId = useId();
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!anchor.current?.contains(event.target as Node)) onOpenChange(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, onOpenChange]);

  return (
    <div ref={anchor} className="popover-anchor">
      <button
        ref={button}
        type="button"
        className={triggerClassName}
        aria-label={triggerLabel}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        disabled={disabled}
        onClick={() => onOpenChange(!open)}
      >
        {trigger}
      </button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label={title}
          className={`popover ${className}`.trim()}
          onClick={(event) => event.stopPropagation()}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            onOpenChange(false);
            button.current?.focus();
          }}
        >
          {children}
        </div>
      )}
    </div>
  );
}
