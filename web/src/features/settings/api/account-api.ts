/** The signed-in user's password and erasure, and the administrator's view of the instance's users. */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';

const adminUserSchema = z.object({
  id: z.string(),
  email_id: z.string(),
  username: z.string(),
  is_admin: z.boolean(),
  is_auditor: z.boolean(),
  is_analyst: z.boolean().optional(),
  created_at: z.string(),
  /** The user's plan's id; a server from before plans sends none, which is the free plan. */
  plan: z.string().optional().default('free'),
});

export type AdminUser = z.infer<typeof adminUserSchema>;

const resetLinkSchema = z.object({ url: z.string(), path: z.string(), expires_at: z.string() });

export type ResetLink = z.infer<typeof resetLinkSchema>;

export const adminQueries = {
  all: () => ['admin'] as const,
  users: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'users'] as const,
      queryFn: async ({ signal }) => z.array(adminUserSchema).parse(await api.get<unknown>('/admin/users', { signal })),
    }),
};

/** Puts a user on a plan (administrators only; 204). Refusals: `unknown_plan`, and 404 for a user who is gone. */
export const setUserPlan = (userId: string, plan: string) =>
  api.put<void>(`/admin/users/${encodeURIComponent(userId)}/plan`, { body: { plan } });

/** Changes the signed-in user's password; the server ends their other sessions. */
export const changePassword = (current_password: string, new_password: string) =>
  api.post<void>('/auth/password', { body: { current_password, new_password } });

/** Issues a one-time reset link for a user (administrators only); it is shown once. */
export const issueResetLink = async (userId: string) =>
  resetLinkSchema.parse(await api.post<unknown>(`/admin/users/${encodeURIComponent(userId)}/reset-link`));

/**
 * Erases the signed-in user's own account, confirmed with their current password (204). Every
 * session of the account ends with it, this one included. Refusals: `wrong_password`, and
 * `last_admin` for an instance's only administrator.
 */
export const eraseAccount = (password: string) => api.delete<void>('/user', { body: { password } });

/**
 * Erases another user's account (administrators only; 204). Refusals: `erase_self` for the
 * administrator's own account, and 404 when it is already gone.
 */
export const eraseUser = (userId: string) => api.delete<void>(`/admin/users/${encodeURIComponent(userId)}`);
