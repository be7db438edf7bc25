import { ConfirmDialog } from '../../../../components/ui/confirm-dialog';
import { isApiError, serverMessage } from '../../../../lib/api-client';
import type { Portfolio } from '../api/portfolio-api';
import { useDeletePortfolio } from '../hooks/use-portfolio-mutations';

export interface DeletePortfolioDialogProps {
  portfolio: Portfolio;
  /** Cancel, Escape. */
  onClose: () => void;
  /** Called once the portfolio is deleted and out of the list. */
  onDeleted: () => void;
}

/** Returns what the dialog says when the delete failed. */
function failureText(error: unknown): string {
  if (isApiError(error) && error.status === 404) return 'This portfolio was already deleted. The list is up to date now.';
  return serverMessage(error) ?? 'The portfolio could not be deleted just now. Please try again in a moment.';
}

/** Asks before deleting a portfolio, naming it and what goes with it. */
export function DeletePortfolioDialog({ portfolio, onClose, onDeleted }: DeletePortfolioDialogProps) {
  const remove = useDeletePortfolio();
  const count = portfolio.holdings.length;
  return (
    <ConfirmDialog
      title={`Delete ${portfolio.name}?`}
      confirmLabel="Delete portfolio"
      pendingLabel="Deleting…"
      pending={remove.isPending}
      onCancel={onClose}
      onConfirm={() => remove.mutate(portfolio.id, { onSuccess: onDeleted })}
    >
      <p>
        {count === 0 ? 'It has no holdings.' : `Its ${count === 1 ? 'holding goes' : `${count} holdings go`} with it.`} Its
        companies are no longer offered to AI feeds as companies to watch. This cannot be undone.
      </p>
      {remove.error && (
        <p className="form-error" role="alert">
          {failureText(remove.error)}
        </p>
      )}
    </ConfirmDialog>
  );
}
