import { useState } from 'react';
import type { ConnectedApp, MailConnection } from '../api/apps-api';
import { accountOf, checkDraft, checkFolders, draftOf, EMPTY_DRAFT, type MailDraft } from '../mail-account';
import { useConnectionForm } from './use-connection-form';
import { useCheckMailAccount, useConnectMail } from './use-mail-mutations';

/** The folder a first connection reads unless told otherwise. */
const INBOX = 'INBOX';

/**
 * The mail form's flow (`useConnectionForm`): the check lists the account's folders, and the
 * folders ticked are connected. `mail`, when given, fills the form (all but the password) and the
 * folders it read are ticked again; a first connection ticks INBOX.
 */
export function useMailAccountForm(mail: MailConnection | null, onConnected: (app: ConnectedApp) => void) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [folderError, setFolderError] = useState<string | null>(null);
  const check = useCheckMailAccount();
  const connect = useConnectMail(onConnected);
  const form = useConnectionForm({
    initial: () => (mail ? draftOf(mail) : EMPTY_DRAFT),
    validate: checkDraft,
    accountOf,
    check,
    connect,
    onListed: (listed: string[]) => {
      const before = mail?.folders.filter((f) => listed.includes(f)) ?? [];
      setChosen(new Set(before.length > 0 ? before : listed.filter((f) => f.toUpperCase() === INBOX)));
    },
    onConnect: (account, listed) => {
      const picked = listed.filter((f) => chosen.has(f));
      const problem = checkFolders(picked);
      setFolderError(problem);
      if (!problem) connect.mutate({ account, folders: picked });
    },
  });

  const update = <K extends keyof MailDraft>(field: K, value: MailDraft[K]) => {
    form.update(field, value);
    setFolderError(null);
  };

  return { ...form, update, folders: form.listed, chosen, setChosen, folderError };
}
