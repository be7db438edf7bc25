import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { isApiError, serverMessage } from '../../../lib/api-client';
import { adminQueries, eraseUser, type AdminUser } from '../api/account-api';

/** Returns what a refusal to erase `name`'s account says in the dialog. */
function failureText(error: unknown, name: string): string {
  if (isApiError(error) && error.status === 404) {
    return `${name} is no longer on this server: the account was already erased. The list is up to date now.`;
  }
  return serverMessage(error) ?? `${name}'s account could not be erased just now. Try again in a moment.`;
}

export interface EraseUserDialogProps {
  user: AdminUser;
  /** Cancel, Escape. */
  onClose: () => void;
  /** Called once the account is erased and the list no longer has it. */
  onErased: () => void;
}

/**
 * Asks an administrator before erasing another user's account, naming them and saying what goes
 * for good. The list of users is fetched again whatever the answer (a 404 means someone erased
 * the account first); the dialog closes only once the new list is in, so the row is gone by then.
 */
export function EraseUserDialog({ user, onClose, onErased }: EraseUserDialogProps) {
  const queryClient = useQueryClient();
  const refreshList = () => queryClient.invalidateQueries({ queryKey: adminQueries.users().queryKey });
  const erase = useMutation({
    mutationFn: () => eraseUser(user.id),
    meta: { toast: false, successToast: `${user.username}'s account was erased.` },
    onSuccess: async () => {
      await refreshList();
      onErased();
    },
    onError: () => refreshList(),
  });

  return (
    <ConfirmDialog
      title={`Erase ${user.username}'s account?`}
      confirmLabel="Erase account"
      pendingLabel="Erasing…"
      pending={erase.isPending}
      onCancel={onClose}
      onConfirm={() => erase.mutate()}
    >
      <p>
        Their name, email, password and the texts of their comments will be erased for good: no one can recover them.
        Their comments stay in their threads, marked as removed, and they are signed out everywhere. This cannot be
        undone.
      </p>
      {erase.error && (
        <p className="form-error" role="alert">
          {failureText(erase.error, user.username)}
        </p>
      )}
    </ConfirmDialog>
  );
}
