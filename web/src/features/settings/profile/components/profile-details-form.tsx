import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { TextField } from '../../../../components/ui/text-field';
import { isApiError, serverMessage } from '../../../../lib/api-client';
import { onboardingQueries } from '../../../../lib/queries/organization-queries';
import { userQueries, type UserProfile } from '../../../../lib/queries/user-queries';
import { whatsappQueries } from '../../whatsapp/api/whatsapp-api';
import { updateProfile, type ProfileChanges } from '../api/profile-api';
import { INVALID_WHATSAPP_NUMBER, isValidWhatsappNumber, WHATSAPP_NUMBER_HINT } from '../whatsapp-number';

/** The server keeps at most this many characters a field. */
const MAX_FIELD_LENGTH = 128;

export const SAVE_FAILED = 'Your profile could not be saved just now. Please try again in a moment.';

interface Values {
  industry: string;
  profession: string;
  whatsapp_number: string;
}

const valuesOf = (profile: UserProfile): Values => ({
  industry: profile.industry ?? '',
  profession: profile.profession ?? '',
  whatsapp_number: profile.whatsapp_number ?? '',
});

/** Returns the fields of `draft` (trimmed) that differ from what the server holds. */
export function changedFields(saved: Values, draft: Values): ProfileChanges {
  const changes: ProfileChanges = {};
  for (const key of ['industry', 'profession', 'whatsapp_number'] as const) {
    const value = draft[key].trim();
    if (value !== saved[key].trim()) changes[key] = value;
  }
  return changes;
}

/** The server writes its sentences in lower case; under a field they start with a capital. */
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The editable part of the profile: industry, profession and the WhatsApp number. The number is
 * checked in the browser with the server's rule before anything is sent; a refusal from the
 * server shows under the field it concerns, anything else above the button. Only changed fields
 * are sent.
 */
export function ProfileDetailsForm({ profile }: { profile: UserProfile }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => valuesOf(profile));
  const [numberProblem, setNumberProblem] = useState(false);
  const [unchanged, setUnchanged] = useState(false);
  const numberRef = useRef<HTMLInputElement>(null);
  const numberId = useId();
  const save = useMutation({
    mutationFn: updateProfile,
    meta: { toast: false },
    onSuccess: (saved) => {
      queryClient.setQueryData(userQueries.profile().queryKey, saved);
      setDraft(valuesOf(saved));
      // Industry and profession decide whether onboarding still asks for them; a new WhatsApp
      // number is unverified.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: onboardingQueries.all() }),
        queryClient.invalidateQueries({ queryKey: whatsappQueries.all() }),
      ]);
    },
    onError: (error) => {
      if (isApiError(error) && error.code === INVALID_WHATSAPP_NUMBER) numberRef.current?.focus();
    },
  });

  const refusedNumber = isApiError(save.error) && save.error.code === INVALID_WHATSAPP_NUMBER;
  const numberError = numberProblem
    ? WHATSAPP_NUMBER_HINT
    : refusedNumber && save.error
      ? capitalised(save.error.message)
      : undefined;
  const formError = save.error && !refusedNumber ? (serverMessage(save.error) ?? SAVE_FAILED) : null;

  const edit = (key: keyof Values, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setUnchanged(false);
    if (!save.isIdle) save.reset();
    // Once the number was refused, the message goes as soon as the number is right.
    if (key === 'whatsapp_number' && numberProblem && isValidWhatsappNumber(value)) setNumberProblem(false);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!isValidWhatsappNumber(draft.whatsapp_number)) {
      setNumberProblem(true);
      save.reset();
      numberRef.current?.focus();
      return;
    }
    setNumberProblem(false);
    const changes = changedFields(valuesOf(profile), draft);
    if (Object.keys(changes).length === 0) {
      setUnchanged(true);
      return;
    }
    save.mutate(changes);
  };

  return (
    <form className="stack" noValidate onSubmit={submit} aria-label="Profile details">
      <TextField
        label="Industry"
        name="industry"
        maxLength={MAX_FIELD_LENGTH}
        value={draft.industry}
        onChange={(e) => edit('industry', e.target.value)}
      />
      <TextField
        label="Profession"
        name="profession"
        autoComplete="organization-title"
        maxLength={MAX_FIELD_LENGTH}
        value={draft.profession}
        onChange={(e) => edit('profession', e.target.value)}
      />
      <div className="field">
        <label className="field-label" htmlFor={numberId}>
          WhatsApp number
        </label>
        <input
          ref={numberRef}
          id={numberId}
          className="input"
          name="whatsapp_number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={MAX_FIELD_LENGTH}
          value={draft.whatsapp_number}
          onChange={(e) => edit('whatsapp_number', e.target.value)}
          aria-invalid={numberError ? true : undefined}
          aria-describedby={numberError ? `${numberId}-error` : `${numberId}-hint`}
        />
        {numberError ? (
          <p id={`${numberId}-error`} className="field-error">
            {numberError}
          </p>
        ) : (
          <p id={`${numberId}-hint`} className="small muted">
            With its country code, e.g. +44 7700 900123. Leave it empty to remove it.
          </p>
        )}
      </div>
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      {save.isSuccess && <p role="status">Profile saved.</p>}
      {unchanged && <p role="status">Nothing to save: your details are as they were.</p>}
      <div>
        <button className="button button-primary" type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  );
}
