/**
 * Saving and deleting portfolios. A save's refusal is shown by the form beside the row it names,
 * so it raises no error toast; success toasts come through the mutation cache (`successToast`).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ToastMeta } from '../../../../lib/query-client';
import {
  createPortfolio,
  deletePortfolio,
  portfolioQueries,
  updatePortfolio,
  type Portfolio,
  type PortfolioChange,
} from '../api/portfolio-api';

export const PORTFOLIO_CREATED = 'Portfolio created';
export const PORTFOLIO_SAVED = 'Portfolio saved';
export const PORTFOLIO_DELETED = 'Portfolio deleted';

/** Creates a portfolio, or replaces the one `id` names. */
export function useSavePortfolio(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: PortfolioChange) => (id ? updatePortfolio(id, change) : createPortfolio(change)),
    meta: { toast: false, successToast: id ? PORTFOLIO_SAVED : PORTFOLIO_CREATED } satisfies ToastMeta,
    onSuccess: (saved: Portfolio) => {
      queryClient.setQueryData(portfolioQueries.detail(saved.id).queryKey, saved);
      return queryClient.invalidateQueries({ queryKey: portfolioQueries.lists() });
    },
  });
}

/** Deletes a portfolio; it leaves the cached list at once. */
export function useDeletePortfolio() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePortfolio,
    meta: { toast: false, successToast: PORTFOLIO_DELETED } satisfies ToastMeta,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Portfolio[]>(portfolioQueries.lists(), (list) => list?.filter((p) => p.id !== id));
      queryClient.removeQueries({ queryKey: portfolioQueries.detail(id).queryKey });
      return queryClient.invalidateQueries({ queryKey: portfolioQueries.lists() });
    },
    // Gone already (404) or not: the list is fetched again to show what the server has.
    onError: () => queryClient.invalidateQueries({ queryKey: portfolioQueries.lists() }),
  });
}
