import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { showPlanPrompt } from '../../../lib/plan-prompts';
import { usePlanCheck } from '../../../lib/pricing';
import type { FieldErrors } from '../credentials';
import { refusalText } from '../refusal';

export interface ConnectionFormSteps<D, A, L> {
  /** The form as it opens: empty, or filled from the connection (all but the password). */
  initial: () => D;
  /** Returns the first problem with each field. */
  validate: (draft: D) => FieldErrors<D>;
  /** Returns what is sent for a draft that passed `validate`. */
  accountOf: (draft: D) => A;
  /** The first step: the server signs in and lists what it found; nothing is recorded. */
  check: UseMutationResult<L, Error, A>;
  /** The second step's state (its call is made by `onConnect`). */
  connect: { isPending: boolean; error: unknown; reset: () => void };
  /** Called with what a check listed, as it is shown. */
  onListed?: (listed: L) => void;
  /** Connects the account checked, with what its check listed. */
  onConnect: (account: A, listed: L) => void;
}

/**
 * The flow both connection forms share: the fields are checked here first, then the server
 * checks the account (it signs in and lists what it found), then the account is connected.
 * Changing a field after the check asks for another, as what was listed was found with the
 * account as it was. A plan known not to include connecting apps brings the pricing prompt
 * without asking the server.
 */
export function useConnectionForm<D extends object, A, L>({
  initial,
  validate,
  accountOf,
  check,
  connect,
  onListed,
  onConnect,
}: ConnectionFormSteps<D, A, L>) {
  const [draft, setDraft] = useState<D>(initial);
  const [errors, setErrors] = useState<FieldErrors<D>>({});
  const [listed, setListed] = useState<L | null>(null);
  const plan = usePlanCheck('connect_app');

  const update = <K extends keyof D>(field: K, value: D[K]) => {
    setDraft((before) => ({ ...before, [field]: value }));
    setErrors((before) => ({ ...before, [field]: undefined }));
    setListed(null);
    check.reset();
    connect.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (plan.status === 'ineligible') {
      showPlanPrompt(plan);
      return;
    }
    if (listed !== null) {
      onConnect(accountOf(draft), listed);
      return;
    }
    const problems = validate(draft);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    check.mutate(accountOf(draft), {
      onSuccess: (found) => {
        setListed(found);
        onListed?.(found);
      },
    });
  };

  return {
    draft,
    errors,
    update,
    listed,
    submit,
    checking: check.isPending,
    connecting: connect.isPending,
    refusal: refusalText(check.error ?? connect.error),
  };
}
