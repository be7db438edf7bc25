import { useState, type FormEvent } from 'react';
import { showPlanPrompt } from '../../../lib/plan-prompts';
import { usePlanCheck } from '../../../lib/pricing';
import type { ConnectedApp, MailConnection } from '../api/apps-api';
import {
  accountOf,
  checkDraft,
  checkFolders,
  draftOf,
  EMPTY_DRAFT,
  refusalText,
  type DraftErrors,
  type MailDraft,
} from '../mail-account';
import { useCheckMailAccount, useConnectMail } from './use-mail-mutations';

/** The folder a first connection reads unless told otherwise. */
const INBOX = 'INBOX';

/**
 * The mail form's flow: the account is checked first (the server signs in and lists its
 * folders), then the folders chosen are connected. Changing a field after the check asks for
 * another, as the folders listed were those of the account as it was. `mail`, when given, fills
 * the form (all but the password) and the folders it read are chosen again.
 */
export function useMailAccountForm(mail: MailConnection | null, onConnected: (app: ConnectedApp) => void) {
  const [draft, setDraft] = useState<MailDraft>(() => (mail ? draftOf(mail) : EMPTY_DRAFT));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [folders, setFolders] = useState<string[] | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [folderError, setFolderError] = useState<string | null>(null);
  const plan = usePlanCheck('connect_app');
  const check = useCheckMailAccount();
  const connect = useConnectMail(onConnected);

  const update = <K extends keyof MailDraft>(field: K, value: MailDraft[K]) => {
    setDraft((before) => ({ ...before, [field]: value }));
    setErrors((before) => ({ ...before, [field]: undefined }));
    setFolders(null);
    setFolderError(null);
    check.reset();
    connect.reset();
  };

  const listFolders = () => {
    const problems = checkDraft(draft);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    check.mutate(accountOf(draft), {
      onSuccess: (listed) => {
        const before = mail?.folders.filter((f) => listed.includes(f)) ?? [];
        setFolders(listed);
        setChosen(new Set(before.length > 0 ? before : listed.filter((f) => f.toUpperCase() === INBOX)));
      },
    });
  };

  const connectChosen = (listed: string[]) => {
    const picked = listed.filter((f) => chosen.has(f));
    const problem = checkFolders(picked);
    setFolderError(problem);
    if (problem) return;
    connect.mutate({ account: accountOf(draft), folders: picked });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (plan.status === 'ineligible') {
      showPlanPrompt(plan);
      return;
    }
    if (folders) connectChosen(folders);
    else listFolders();
  };

  return {
    draft,
    errors,
    update,
    folders,
    chosen,
    setChosen,
    folderError,
    submit,
    checking: check.isPending,
    connecting: connect.isPending,
    refusal: refusalText(check.error ?? connect.error),
  };
}
