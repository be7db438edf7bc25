import { useEffect } from 'react';
import { onNotice } from '../lib/notices';
import { ToastContext } from './toast-context';
import { CheckIcon, XIcon } from '../components/ui/icons';

/** The mark before a toast's message; success is drawn, the others are plain characters every font has. */
const ICONS = { success: <CheckIcon size={14} strokeWidth={3} />, error: '!', loading: '…', blank: '', custom: '' } as const;

/**
 * Renders the visible toasts in a polite live region; each can be dismissed. Notices that
 * features raise (src/lib/notices) become toasts here.
 */
export function Toaster() {
  const toasts = ToastContext.useSelector((s) => s.context.toasts);
  const actor = ToastContext.useActorRef();

  useEffect(
    () =>
      onNotice(({ type, message, duration }) =>
        actor.send({ type: 'toast.show', toastType: type, message, ...(duration ? { duration } : {}) }),
      ),
    [actor],
  );

  return (
    <div className="toaster" role="region" aria-label="Notifications" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'}>
          {ICONS[toast.type] && (
            <span className="toast-icon" aria-hidden="true">
              {ICONS[toast.type]}
            </span>
          )}
          <span className="toast-message">{toast.message}</span>
          <button
            type="button"
            className="icon-button toast-close"
            aria-label="Dismiss notification"
            onClick={() => actor.send({ type: 'toast.dismiss', id: toast.id })}
          >
            <XIcon size={18} />
          </button>
        </div>
      ))}
    </div>
  );
}
