import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/ui/text-field';
import { isApiError } from '../../../lib/api-client';
import { changePassword } from '../api/account-api';

const MIN_LENGTH = 8;

type Field = 'current' | 'password' | 'confirm';

/** Where a server refusal is shown: under the field it is about. */
const FIELD_OF_CODE: Record<string, Field> = {
  wrong_password: 'current',
  weak_password: 'password',
  password_too_long: 'password',
};

/** Returns the first problem with each field, checked before anything is sent. */
function check(current: string, password: string, confirm: string): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (!current) errors.current = 'Current password is a required field';
  if (!password) errors.password = 'New password is a required field';
  else if (password.length < MIN_LENGTH) errors.password = `Password must be at least ${MIN_LENGTH} characters`;
  if (password && confirm !== password) errors.confirm = 'The two passwords differ';
  return errors;
}

/**
 * The settings section that changes the password: the current one, the new one twice. The
 * server's reason for refusing (a wrong current password, a password too easy to guess) shows
 * under its field. Other sessions end; this one goes on.
 */
export function ChangePasswordSection() {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const change = useMutation({
    mutationFn: ({ current, password }: { current: string; password: string }) => changePassword(current, password),
    meta: { toast: false },
  });
  const serverField = isApiError(change.error) ? FIELD_OF_CODE[change.error.code] : undefined;
  const shown = serverField && change.error ? { ...errors, [serverField]: change.error.message } : errors;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const [current, password, confirm] = ['current', 'password', 'confirm'].map((k) => String(data.get(k) ?? ''));
    const problems = check(current, password, confirm);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      change.reset();
      return;
    }
    change.mutate({ current, password }, { onSuccess: () => form.reset() });
  };

  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading" className="card-title">
        Password
      </h2>
      <form className="stack" noValidate onSubmit={submit} aria-label="Change password">
        <TextField label="Current password" name="current" type="password" autoComplete="current-password" error={shown.current} />
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={MIN_LENGTH}
          error={shown.password}
        />
        <TextField label="Repeat the new password" name="confirm" type="password" autoComplete="new-password" error={shown.confirm} />
        <p className="small muted">At least {MIN_LENGTH} characters; a few uncommon words are easy to remember and hard to guess.</p>
        {change.error && !serverField && (
          <p className="form-error" role="alert">
            {change.error.message}
          </p>
        )}
        {change.isSuccess && (
          <p role="status">Password changed. Your other sessions were signed out; this one goes on.</p>
        )}
        <div>
          <button className="button button-primary" type="submit" disabled={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
