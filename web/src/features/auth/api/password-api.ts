/** Forgotten passwords against `/api/auth`: how resets work here, asking for a link, and using it. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export interface ResetOptions {
  /** True when reset links are mailed; false when only an administrator can issue one. */
  by_mail: boolean;
  link_minutes: number;
}

export interface ResetRequested {
  message: string;
  by_mail: boolean;
}

export const passwordQueries = {
  resetOptions: () =>
    queryOptions({
      queryKey: ['auth', 'password-reset'] as const,
      queryFn: () => api.get<ResetOptions>('/auth/password-reset'),
      staleTime: Infinity,
    }),
};

export const requestReset = (email: string) =>
  api.post<ResetRequested>('/auth/password-reset/request', { body: { email } });

export const completeReset = (token: string, password: string) =>
  api.post<void>('/auth/password-reset/complete', { body: { token, password } });
