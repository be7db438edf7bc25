import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../../components/ui/text-field';
import { serverMessage } from '../../../../lib/api-client';
import { onboardingQueries, type OnboardingFlags } from '../../../../lib/queries/organization-queries';
import { userQueries, type UserStatus } from '../../../../lib/queries/user-queries';
import { completeOnboarding, type OnboardingAttributes } from '../api/onboarding-api';

/** The server keeps at most this many characters a field. */
const MAX_FIELD_LENGTH = 128;

export const ONBOARDING_FAILED = 'Your answers could not be saved just now. Please try again in a moment.';

type Field = keyof OnboardingAttributes;

const LABELS: Record<Field, string> = { industry: 'Industry', profession: 'Profession' };

/** Returns the first problem with each field ("Industry is a required field"). */
function check(values: OnboardingAttributes): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const field of ['industry', 'profession'] as const) {
    if (!values[field].trim()) errors[field] = `${LABELS[field]} is a required field`;
  }
  return errors;
}

/**
 * The onboarding attributes form: the user's industry and profession, both required. Saving
 * them completes onboarding; the cached status and flags say so at once (the onboarding page
 * leaves on that), and `onDone` runs, for a host that must close itself.
 */
export function AttributesForm({ initial = {}, onDone }: { initial?: Partial<OnboardingAttributes>; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const complete = useMutation({
    mutationFn: completeOnboarding,
    meta: { toast: false },
    onSuccess: (status) => {
      queryClient.setQueryData<UserStatus>(userQueries.status().queryKey, status);
      queryClient.setQueryData<OnboardingFlags>(onboardingQueries.flags().queryKey, {
        show_attributes_form: false,
        show_search_modal: false,
      });
      void queryClient.invalidateQueries({ queryKey: userQueries.profile().queryKey });
      onDone?.();
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const values = { industry: String(data.get('industry') ?? '').trim(), profession: String(data.get('profession') ?? '').trim() };
    const problems = check(values);
    setErrors(problems);
    const first = (['industry', 'profession'] as const).find((field) => problems[field]);
    if (first) {
      complete.reset();
      (form.elements.namedItem(first) as HTMLInputElement | null)?.focus();
      return;
    }
    complete.mutate(values);
  };

  return (
    <form className="stack" noValidate onSubmit={submit} aria-label="About your work">
      <TextField
        label="Industry"
        name="industry"
        required
        maxLength={MAX_FIELD_LENGTH}
        defaultValue={initial.industry ?? ''}
        error={errors.industry}
      />
      <TextField
        label="Profession"
        name="profession"
        required
        autoComplete="organization-title"
        maxLength={MAX_FIELD_LENGTH}
        defaultValue={initial.profession ?? ''}
        error={errors.profession}
      />
      {complete.isError && (
        <p className="form-error" role="alert">
          {serverMessage(complete.error) ?? ONBOARDING_FAILED}
        </p>
      )}
      <button className="button button-primary" type="submit" disabled={complete.isPending}>
        {complete.isPending ? 'Saving…' : 'Continue'}
      </button>
    </form>
  );
}
