/**
 * The writes of the mail connection. Refusals are shown by the form or dialog that made them, so
 * they raise no error toast (a refusal of the plan still brings the pricing prompt, through the
 * mutation cache); success toasts come through the cache too (`successToast`). Each write puts the
 * app's new state in the cache and refreshes the apps and the lists its documents join.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import type { ToastMeta } from '../../../lib/query-client';
import {
  checkMailAccount,
  chooseMailFolders,
  connectedAppQueries,
  connectMail,
  disconnectMail,
  MAIL_APP,
  syncMail,
  type ConnectedApp,
  type MailAccount,
} from '../api/apps-api';
import { MAIL_FAILED, refusalText } from '../mail-account';

export const MAIL_CONNECTED = 'Mailbox connected. Its mail is on its way.';
export const CHECKING_MAIL = 'Checking for new mail…';
export const FOLDERS_SAVED = 'Folders saved';
export const MAIL_DISCONNECTED = 'Mailbox disconnected. Its documents stay.';

/** Keeps the mail app's new state and refreshes what depends on it (the apps, the documents, My Data's counts). */
function settle(queryClient: QueryClient, app: ConnectedApp | null) {
  if (app) queryClient.setQueryData(connectedAppQueries.detail(MAIL_APP).queryKey, app);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: connectedAppQueries.all() }),
    queryClient.invalidateQueries({ queryKey: documentKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
  ]);
}

/** Signs in with an account and lists its folders (the form's first step); records nothing. */
export function useCheckMailAccount() {
  return useMutation({
    mutationFn: checkMailAccount,
    meta: { toast: false } satisfies ToastMeta,
  });
}

/**
 * Connects the mailbox with the folders chosen. `onConnected` is the mutation's own callback, not
 * the call's: the form that connects gives way to the connected summary as the new state lands,
 * and a call's callbacks die with the form, while the page must still start watching the first sync.
 */
export function useConnectMail(onConnected?: (app: ConnectedApp) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ account, folders }: { account: MailAccount; folders: string[] }) => connectMail(account, folders),
    meta: { toast: false, successToast: MAIL_CONNECTED } satisfies ToastMeta,
    onSuccess: (app) => {
      onConnected?.(app);
      return settle(queryClient, app);
    },
  });
}

/** Replaces the folders the mailbox reads. */
export function useChooseMailFolders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: chooseMailFolders,
    meta: { toast: false, successToast: FOLDERS_SAVED } satisfies ToastMeta,
    onSuccess: (app) => settle(queryClient, app),
  });
}

/**
 * Asks for the mailbox to be read now; a failure is a toast with the server's words, and the
 * app's state is asked again (it may have been disconnected elsewhere).
 */
export function useSyncMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncMail,
    meta: { successToast: CHECKING_MAIL, errorToast: (error) => refusalText(error) ?? MAIL_FAILED } satisfies ToastMeta,
    onSuccess: (app) => settle(queryClient, app),
    onError: () => queryClient.invalidateQueries({ queryKey: connectedAppQueries.all() }),
  });
}

/** Disconnects the mailbox; the page shows the form again at once. */
export function useDisconnectMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectMail,
    meta: { toast: false, successToast: MAIL_DISCONNECTED } satisfies ToastMeta,
    onSuccess: () => {
      queryClient.setQueryData<ConnectedApp>(connectedAppQueries.detail(MAIL_APP).queryKey, (app) =>
        app ? { ...app, connected: false, tokenValid: null, mail: null } : app,
      );
      return settle(queryClient, null);
    },
  });
}
