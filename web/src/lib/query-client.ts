/**
 * The React Query client with the spec's rules: no refetch on window focus; a failed query is
 * retried fewer than two times, and never after a 401 or 404. Errors reach the UI through the
 * `onError` callback the app passes in (it shows toasts).
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, isPlanRefusal, type ApiError } from './api-client';

/** The generic error toast's text (document 1), for failures the server gave no words for. */
export const GENERIC_FAILURE = 'Oops! Something Went Wrong. Please Try Again Later :(';

/** Returns whether a query that failed `failureCount` times with `error` is tried again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && (error.status === 401 || error.status === 404)) return false;
  return failureCount < 2;
}

/**
 * What a query or mutation may say about its toasts, in `meta`: `toast: false` keeps a failure
 * quiet (the page shows it inline); `errorToast` replaces the generic failure text (a function
 * gets the error, to use the server's words); `successToast` is shown when a mutation succeeds;
 * `toastDuration` replaces the toast type's usual duration (ms).
 */
export interface ToastMeta {
  toast?: false;
  errorToast?: string | ((error: unknown) => string);
  successToast?: string;
  toastDuration?: number;
}

export interface QueryClientHooks {
  onError?: (error: unknown, meta: Record<string, unknown> | undefined) => void;
  onMutationSuccess?: (meta: Record<string, unknown> | undefined) => void;
  /** A write the plan refused (403 `plan_required`): the app shows the pricing prompt, whatever the mutation's meta says. */
  onPlanRefused?: (error: ApiError) => void;
}

export function createQueryClient(hooks: QueryClientHooks = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => hooks.onError?.(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _v, _c, mutation) => {
        if (isPlanRefusal(error)) hooks.onPlanRefused?.(error);
        hooks.onError?.(error, mutation.meta);
      },
      onSuccess: (_data, _v, _c, mutation) => hooks.onMutationSuccess?.(mutation.meta),
    }),
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
