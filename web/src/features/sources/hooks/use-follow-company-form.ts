import { useActorRef } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { companySearchMachine } from '../company-search.machine';
import { COMPANY_REQUIRED, FOLLOW_FAILED } from '../messages';
import { edgarFailure, useFollowCompany } from './use-edgar-mutations';

/**
 * The follow-a-company form: the company search's flow, the typed text checked before calling,
 * and the follow. Follow sends the CIK of the company picked from the options, else what was
 * typed (a ticker or CIK, or a name the server may resolve), with the ticked forms. The server's
 * refusal is returned for the form to show; on success the form is cleared.
 */
export function useFollowCompanyForm() {
  const search = useActorRef(companySearchMachine);
  const follow = useFollowCompany();
  const [error, setError] = useState<string | undefined>();

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The button stays focusable while a follow is on its way, so a second press is ignored here.
    if (follow.isPending) return;
    const form = event.currentTarget;
    const { text, picked } = search.getSnapshot().context;
    search.send({ type: 'company.close' });
    const company = picked ?? text.trim();
    if (!company) {
      follow.reset();
      setError(COMPANY_REQUIRED);
      return;
    }
    setError(undefined);
    const forms = new FormData(form).getAll('forms').map(String);
    follow.mutate(
      { company, forms },
      {
        onSuccess: () => {
          form.reset();
          search.send({ type: 'company.clear' });
        },
      },
    );
  };

  return {
    search,
    error,
    serverError: follow.isError ? edgarFailure(FOLLOW_FAILED)(follow.error) : null,
    pending: follow.isPending,
    handleSubmit,
  };
}
