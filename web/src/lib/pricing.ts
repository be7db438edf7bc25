/**
 * The plan check (pricing gate). When the `is_pricing` flag is on, a gated action asks the
 * server's eligibility map first and, when the plan does not include it, a prompt shows instead
 * of the action. With pricing off (every self-hosted instance) everything is eligible and the
 * map is never asked for.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api';
import { featureQueries } from './queries/feature-queries';

/** The spec's eligibility keys. */
export const PRICING_KEYS = [
  'view_clipped',
  'view_notebook',
  'add_feed',
  'add_notebook',
  'save_clip',
  'view_needldrive',
  'connect_app',
  'add_to_needldrive',
  'enable_feed',
  'view_myfeeds',
] as const;

export type PricingKey = (typeof PRICING_KEYS)[number];

export interface Eligibility {
  isEligible: boolean;
  message?: string | null;
}

export type PlanCheck = { status: 'eligible' } | { status: 'checking' } | { status: 'ineligible'; message: string };

export const NOT_IN_PLAN = 'This is not included in your plan.';

/**
 * Returns what the plan allows for `key`: everything when pricing is off; otherwise the
 * server's answer, and not eligible when it has none. An unknown key is a programming error and
 * throws (the spec).
 */
export function planCheck(key: string, pricingOn: boolean, answer: Record<string, Eligibility> | undefined): PlanCheck {
  if (!(PRICING_KEYS as readonly string[]).includes(key)) throw new Error(`unknown pricing feature key: ${key}`);
  if (!pricingOn) return { status: 'eligible' };
  if (!answer) return { status: 'checking' };
  const entry = answer[key];
  return entry?.isEligible ? { status: 'eligible' } : { status: 'ineligible', message: entry?.message || NOT_IN_PLAN };
}

export const pricingQueries = {
  /** Feature → eligibility; asked only when pricing applies. */
  eligibility: () =>
    queryOptions({
      queryKey: ['pricing', 'eligibility'] as const,
      queryFn: async ({ signal }) =>
        (await api.get<{ results: Record<string, Eligibility> }>('/messaging/pricing', { signal })).results,
      staleTime: 60_000,
      meta: { toast: false },
    }),
};

/** Returns the plan check for `key` for the signed-in user. */
export function usePlanCheck(key: PricingKey): PlanCheck {
  const pricingOn = useQuery(featureQueries.config()).data?.features.is_pricing === true;
  const eligibility = useQuery({ ...pricingQueries.eligibility(), enabled: pricingOn });
  // A failed answer is no answer: not eligible rather than checking for ever.
  return planCheck(key, pricingOn, eligibility.isError ? {} : eligibility.data);
}
