import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { pricingQueries } from '../../../lib/pricing';
import type { ToastMeta } from '../../../lib/query-client';
import { adminQueries, setUserPlan, type AdminUser } from '../api/account-api';

/** The built-in plans, named while the instance's list loads (their ids are stable). */
const BUILT_IN: Record<string, string> = { free: 'Free', pro: 'Professional', enterprise: 'Enterprise' };

/**
 * A user's plan on the Users page: choosing one saves it at once (the select waits meanwhile),
 * and a toast says how it went. Moving to a smaller plan deletes nothing of theirs.
 */
export function UserPlanSelect({ user }: { user: AdminUser }) {
  const id = useId();
  const queryClient = useQueryClient();
  const plans = useQuery(pricingQueries.plans());
  const options = plans.data?.plans.map((p) => ({ id: p.id, name: p.name })) ?? Object.entries(BUILT_IN).map(([id, name]) => ({ id, name }));
  const nameOf = (plan: string) => options.find((o) => o.id === plan)?.name ?? plan;
  const save = useMutation({
    meta: {
      errorToast: (error) => serverMessage(error) ?? `${user.username}'s plan could not be changed. Try again in a moment.`,
    } satisfies ToastMeta,
    mutationFn: (plan: string) => setUserPlan(user.id, plan),
    onSuccess: (_data, plan) => {
      queryClient.setQueryData(adminQueries.users().queryKey, (list) => list?.map((u) => (u.id === user.id ? { ...u, plan } : u)));
      notify({ type: 'success', message: `${user.username} is now on the ${nameOf(plan)} plan.` });
      // The administrator may have changed their own plan.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueries.users().queryKey }),
        queryClient.invalidateQueries({ queryKey: pricingQueries.all() }),
      ]);
    },
  });
  const value = (save.isPending ? save.variables : undefined) ?? user.plan;
  return (
    <div className="user-plan">
      <label htmlFor={id} className="small">
        Plan
      </label>
      <select
        id={id}
        aria-label={`Plan for ${user.username}`}
        className="input input-small"
        value={value}
        disabled={save.isPending}
        onChange={(e) => save.mutate(e.target.value)}
      >
        {options.some((o) => o.id === value) ? null : <option value={value}>{nameOf(value)}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}
