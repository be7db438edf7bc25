/**
 * Calls and queries for following US companies' SEC EDGAR filings: whether EDGAR is on here
 * (with the forms it knows), the companies followed, the company search, follow, check now and
 * unfollow. The types are written here from the API's contract: the API client is not generated.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { fetchPending } from '../../../lib/queries/source-queries';
import { sourceKeys } from '../../../lib/queries/source-keys';

const followedCompanySchema = z.object({
  source_id: z.string(),
  /** Ten digits with leading zeros ("0000320193"), as EDGAR writes it. */
  cik: z.string(),
  ticker: z.string().nullish(),
  name: z.string(),
  /** The forms followed; empty for every form. */
  forms: z.array(z.string()),
  /** How many filings have been brought in so far. */
  filings: z.number().int().nonnegative(),
  /** When a check last worked. */
  last_fetched_at: z.string().nullish(),
  /** When EDGAR was last checked, whatever came of it; null before the first check. */
  last_attempt_at: z.string().nullish(),
  /** When EDGAR is checked next (later after each failure). */
  next_attempt_at: z.string().nullish(),
  /** Why the last check failed; null when it worked. */
  last_error: z.string().nullish(),
});

export type FollowedCompany = z.infer<typeof followedCompanySchema>;

const edgarSchema = z.object({
  enabled: z.boolean(),
  /** Why EDGAR is off here, for a person; null while it is on. */
  reason: z.string().nullish(),
  /** The form types a follow may be narrowed to ("10-K", "8-K", ...). */
  forms: z.array(z.string()),
  companies: z.array(followedCompanySchema),
});

export type Edgar = z.infer<typeof edgarSchema>;

const companySchema = z.object({ cik: z.string(), ticker: z.string().nullish(), name: z.string() });

/** A company of EDGAR's list, offered while typing. */
export type Company = z.infer<typeof companySchema>;

const companyListSchema = z.object({ companies: z.array(companySchema) });

/** The error code of a company search while the server has no company list yet. */
export const COMPANY_LIST_MISSING = 'company_list_missing';
/** The error code of a call while the operator has not set EDGAR up (503). */
export const EDGAR_NOT_CONFIGURED = 'edgar_not_configured';

/** Whether a company of `edgar` waits for a check that is due now (just followed, or Check now). */
export const awaitingCheck = (edgar: Edgar | undefined) => Boolean(edgar?.companies.some((c) => fetchPending(c)));

export const edgarQueries = {
  followed: () =>
    queryOptions({
      queryKey: sourceKeys.edgarFollowed(),
      queryFn: async ({ signal }) => edgarSchema.parse(await api.get<unknown>('/connect/edgar', { signal })),
      staleTime: 15_000,
      // A check's outcome is no event on the live socket: while one is due, the list is asked again.
      refetchInterval: (query) => (awaitingCheck(query.state.data) ? 2_000 : false),
    }),
  /** The company list changes when the operator refreshes it, seldom; a refusal is shown where the options go. */
  companies: (q: string) =>
    queryOptions({
      queryKey: sourceKeys.edgarCompanies(q),
      queryFn: async ({ signal }) =>
        companyListSchema.parse(await api.get<unknown>(`/connect/edgar/companies?q=${encodeURIComponent(q)}`, { signal }))
          .companies,
      staleTime: 5 * 60_000,
      retry: false,
      meta: { toast: false },
    }),
};

export interface FollowCompanyInput {
  /** A ticker, a CIK or a name. */
  company: string;
  /** The forms to bring in; empty for every form. */
  forms: string[];
}

export const followCompany = async (input: FollowCompanyInput): Promise<FollowedCompany> =>
  followedCompanySchema.parse(await api.post<unknown>('/connect/edgar', { body: input }));

/** Asks for the company's filings to be checked now instead of at its next check. */
export const checkCompany = async (sourceId: string): Promise<FollowedCompany> =>
  followedCompanySchema.parse(await api.post<unknown>(`/connect/edgar/${encodeURIComponent(sourceId)}/refresh`));

export const unfollowCompany = (sourceId: string) => api.delete<void>(`/connect/edgar/${encodeURIComponent(sourceId)}`);
