/** The app-wide providers: toasts, React Query (whose errors become toasts) and the router. */
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { isApiError } from '../lib/api-client';
import { showPlanPrompt } from '../lib/plan-prompts';
import { promptForRefusal } from '../lib/pricing';
import { createQueryClient, type ToastMeta } from '../lib/query-client';
import { GENERIC_FAILURE, ToastContext } from './toast-context';
import { Toaster } from './toaster';

/** Returns the message a failed call shows, or null when it should stay quiet. */
export function toastMessageFor(error: unknown, meta: ToastMeta | undefined): string | null {
  if (meta?.toast === false) return null;
  // A lost session has its own prompt.
  if (isApiError(error) && (error.status === 401 || error.status === 403)) return null;
  if (typeof meta?.errorToast === 'function') return meta.errorToast(error);
  if (meta?.errorToast) return meta.errorToast;
  if (isApiError(error) && error.status < 500) return error.message;
  return GENERIC_FAILURE;
}

/** Provides the query client; its failures become error toasts. */
export function QueryProvider({ children, retry = true }: { children: ReactNode; retry?: boolean }) {
  const toasts = ToastContext.useActorRef();
  const [queryClient] = useState(() => {
    const client = createQueryClient({
      onError: (error, meta) => {
        const message = toastMessageFor(error, meta as ToastMeta | undefined);
        const duration = (meta as ToastMeta | undefined)?.toastDuration;
        if (message) toasts.send({ type: 'toast.show', toastType: 'error', message, ...(duration ? { duration } : {}) });
      },
      // Not a toast: the pricing prompt, with the words the eligibility map has for the refusal.
      onPlanRefused: (error) => void promptForRefusal(client, error).then(showPlanPrompt),
      onMutationSuccess: (meta) => {
        const { successToast: message, toastDuration: duration } = (meta as ToastMeta | undefined) ?? {};
        if (message) toasts.send({ type: 'toast.show', toastType: 'success', message, ...(duration ? { duration } : {}) });
      },
    });
    if (!retry) client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false } });
    return client;
  });
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ToastContext.Provider>
      <QueryProvider>
        <BrowserRouter>{children}</BrowserRouter>
      </QueryProvider>
      <Toaster />
    </ToastContext.Provider>
  );
}
