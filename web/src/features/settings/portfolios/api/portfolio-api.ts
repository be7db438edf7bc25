/**
 * The signed-in user's portfolios (only the owner sees one): the list, one portfolio, and saving
 * or deleting one. Saving sends the whole list of holdings; the server replaces what it had.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../../lib/api';

const holdingSchema = z.object({
  company: z.string(),
  isin: z.string(),
  quantity: z.number(),
});

const portfolioSchema = z.object({
  id: z.string(),
  name: z.string(),
  holdings: z.array(holdingSchema),
  created_at: z.string(),
  updated_at: z.string(),
});

export type Holding = z.infer<typeof holdingSchema>;
export type Portfolio = z.infer<typeof portfolioSchema>;

/** What a save sends: the name and every holding, in the order the rows show them. */
export interface PortfolioChange {
  name: string;
  holdings: Holding[];
}

export const portfolioQueries = {
  all: () => ['portfolios'] as const,
  lists: () => [...portfolioQueries.all(), 'list'] as const,
  /** The user's portfolios, newest first. */
  list: () =>
    queryOptions({
      queryKey: portfolioQueries.lists(),
      queryFn: async ({ signal }) =>
        z.object({ portfolios: z.array(portfolioSchema) }).parse(await api.get<unknown>('/portfolios', { signal })).portfolios,
      meta: { toast: false },
    }),
  details: () => [...portfolioQueries.all(), 'detail'] as const,
  detail: (id: string) =>
    queryOptions({
      queryKey: [...portfolioQueries.details(), id] as const,
      queryFn: async ({ signal }) =>
        portfolioSchema.parse(await api.get<unknown>(`/portfolios/${encodeURIComponent(id)}`, { signal })),
      meta: { toast: false },
    }),
};

/** Creates a portfolio (201). Refusals are 422s whose message names the row, 1-based. */
export const createPortfolio = async (change: PortfolioChange) =>
  portfolioSchema.parse(await api.post<unknown>('/portfolios', { body: change }));

/** Replaces a portfolio's name and holdings. */
export const updatePortfolio = async (id: string, change: PortfolioChange) =>
  portfolioSchema.parse(await api.put<unknown>(`/portfolios/${encodeURIComponent(id)}`, { body: change }));

/** Deletes a portfolio (204). */
export const deletePortfolio = (id: string) => api.delete<void>(`/portfolios/${encodeURIComponent(id)}`);
