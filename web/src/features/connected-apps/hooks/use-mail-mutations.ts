/** The writes only mail makes: checking an account lists its folders, connecting takes the folders chosen, and choosing them again. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ToastMeta } from '../../../lib/query-client';
import { checkMailAccount, chooseMailFolders, connectMail, MAIL_APP, type ConnectedApp, type MailAccount } from '../api/apps-api';
import { MAIL } from '../connections';
import { settle, useCheckAccount, useConnectAccount } from './use-connection-mutations';

export const FOLDERS_SAVED = 'Folders saved';

/** Signs in with an account and lists its folders (the form's first step); records nothing. */
export const useCheckMailAccount = () => useCheckAccount(checkMailAccount);

/** Connects the mailbox with the folders chosen (see `useConnectAccount`). */
export const useConnectMail = (onConnected?: (app: ConnectedApp) => void) =>
  useConnectAccount(MAIL, ({ account, folders }: { account: MailAccount; folders: string[] }) => connectMail(account, folders), onConnected);

/** Replaces the folders the mailbox reads. */
export function useChooseMailFolders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: chooseMailFolders,
    meta: { toast: false, successToast: FOLDERS_SAVED } satisfies ToastMeta,
    onSuccess: (app) => settle(queryClient, MAIL_APP, app),
  });
}
