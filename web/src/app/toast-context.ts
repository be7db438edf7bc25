/** The app-wide toast actor and a small API to show toasts from components. */
import { createActorContext } from '@xstate/react';
import { useMemo } from 'react';
import { toastMachine, type ToastType } from './toast.machine';

export const ToastContext = createActorContext(toastMachine);

export { GENERIC_FAILURE } from '../lib/query-client';

/** Returns functions that show toasts of each type; each returns the toast's id. */
export function useToast() {
  const toasts = ToastContext.useActorRef();
  return useMemo(() => {
    let n = 0;
    const show = (toastType: ToastType) => (message: string, id = `t-${Date.now()}-${++n}`) => {
      toasts.send({ type: 'toast.show', toastType, message, id });
      return id;
    };
    return {
      success: show('success'),
      error: show('error'),
      blank: show('blank'),
      loading: show('loading'),
      dismiss: (id: string) => toasts.send({ type: 'toast.dismiss', id }),
    };
  }, [toasts]);
}
