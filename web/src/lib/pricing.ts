/**
 * The plan check (pricing gate). When the `is_pricing` flag is on, a gated action asks the
 * server's eligibility map first and, when the plan does not include it, a prompt shows instead
 * of the action. With pricing off (every self-hosted instance) everything is eligible and the
 * map is never asked for. The user's plan, its limits and usage come from here too, as the prompt
 * needs the billing portal and the Plan settings page the rest.
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from './api';
import type { ApiError } from './api-client';
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

/** Where the prompt's footer leads: the plan (upgrade), the storage page or the feed manager. */
export const PLAN_ACTIONS = ['upgrade', 'storage', 'feed_manager'] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];

/** One entry of the server's eligibility map; the words are null when the feature is eligible. */
export interface Eligibility {
  isEligible: boolean;
  message?: string | null;
  header?: string | null;
  subtext?: string | null;
  action?: string | null;
}

/** What the pricing prompt says: its header, body, the smaller line under it, and its footer action. */
export interface PlanPrompt {
  header: string;
  message: string;
  subtext: string | null;
  action: PlanAction;
}

export type PlanCheck = { status: 'eligible' } | { status: 'checking' } | ({ status: 'ineligible' } & PlanPrompt);

export const NOT_IN_PLAN = 'This is not included in your plan.';
export const UPGRADE_HEADER = 'Upgrade your plan';

const isPlanAction = (action: unknown): action is PlanAction => (PLAN_ACTIONS as readonly unknown[]).includes(action);

/** Returns the prompt for a feature the server says is not eligible, filling what it left out. */
export function promptOf(entry: Eligibility | undefined): PlanPrompt {
  return {
    header: entry?.header || UPGRADE_HEADER,
    message: entry?.message || NOT_IN_PLAN,
    subtext: entry?.subtext || null,
    action: isPlanAction(entry?.action) ? entry.action : 'upgrade',
  };
}

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
  return entry?.isEligible ? { status: 'eligible' } : { status: 'ineligible', ...promptOf(entry) };
}

const limitsSchema = z.object({
  /** Null: no limit. */
  feeds: z.number().nullable(),
  enabled_feeds: z.number().nullable(),
  notebooks: z.number().nullable(),
  storage_bytes: z.number().nullable(),
});

const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish().transform((d) => d ?? ''),
  /** The pricing keys the plan includes. */
  features: z.array(z.string()),
  limits: limitsSchema,
});

export type Plan = z.infer<typeof planSchema>;
export type PlanLimits = z.infer<typeof limitsSchema>;

const userPlanSchema = z.object({
  plan: planSchema,
  /** The user's `is_pricing` flag: without it, the plan limits nothing. */
  pricing: z.boolean(),
  usage: z.object({ feeds: z.number(), enabled_feeds: z.number(), notebooks: z.number(), storage_bytes: z.number() }),
  /** Null when the instance has no billing provider: the administrator changes plans. */
  billing_portal_url: z.string().nullable(),
});

export type UserPlan = z.infer<typeof userPlanSchema>;
export type PlanUsage = UserPlan['usage'];

const plansSchema = z.object({ plans: z.array(planSchema), default_plan: z.string() });

export const pricingQueries = {
  all: () => ['pricing'] as const,
  /** Feature → eligibility; asked only when pricing applies. */
  eligibility: () =>
    queryOptions({
      queryKey: [...pricingQueries.all(), 'eligibility'] as const,
      queryFn: async ({ signal }) =>
        (await api.get<{ results: Record<string, Eligibility> }>('/messaging/pricing', { signal })).results,
      staleTime: 60_000,
      meta: { toast: false },
    }),
  /** The signed-in user's plan, usage and billing portal. */
  userPlan: () =>
    queryOptions({
      queryKey: [...pricingQueries.all(), 'user-plan'] as const,
      queryFn: async ({ signal }) => userPlanSchema.parse(await api.get<unknown>('/user/plan', { signal })),
      meta: { toast: false },
    }),
  /** The instance's plans. */
  plans: () =>
    queryOptions({
      queryKey: [...pricingQueries.all(), 'plans'] as const,
      queryFn: async ({ signal }) => plansSchema.parse(await api.get<unknown>('/plans', { signal })),
      staleTime: Infinity,
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

/**
 * Returns the prompt for a write the server refused for the plan: the eligibility map is now out
 * of date, so it is asked again, and the entry with the refusal's words gives the header, subtext
 * and action; without one, the refusal's words with the upgrade action.
 */
export async function promptForRefusal(queryClient: QueryClient, error: ApiError): Promise<PlanPrompt> {
  await queryClient.invalidateQueries({ queryKey: pricingQueries.all() });
  const map = await queryClient.fetchQuery(pricingQueries.eligibility()).catch(() => ({}) as Record<string, Eligibility>);
  const entry = Object.values(map).find((e) => !e.isEligible && e.message === error.message);
  return promptOf(entry ?? { isEligible: false, message: error.message });
}

/** Asks the plan's numbers again after a change that counts against them (a feed made or removed). */
export const refreshPlanUsage = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: pricingQueries.all() });
