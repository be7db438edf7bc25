import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { isApiError, serverMessage } from '../../../lib/api-client';
import { endLocalSession } from '../../../lib/auth';
import { leaveSignInNotice } from '../../../lib/sign-in-notice';
import { eraseAccount } from '../api/account-api';

const NO_PASSWORD = 'Type your current password to erase your account';
const FAILED = 'Your account could not be erased just now. Try again in a moment.';

/**
 * Asks for the current password before erasing the signed-in user's account. A wrong password
 * shows under the field (which takes focus again); any other refusal (the only administrator)
 * shows above the buttons. Once the server has erased the account its sessions are over, so this
 * page forgets its own without calling the server, leaves the sign-in page a notice and goes
 * there. While the call is out the dialog cannot be closed: the erasure would go on regardless.
 */
export function EraseAccountDialog({ onClose }: { onClose: () => void }) {
  const formId = useId();
  const form = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();
  const [missing, setMissing] = useState(false);
  const passwordField = () => form.current?.elements.namedItem('password') as HTMLInputElement | null | undefined;
  const erase = useMutation({
    mutationFn: eraseAccount,
    meta: { toast: false },
    onSuccess: () => {
      leaveSignInNotice('account_erased');
      endLocalSession();
      navigate('/', { replace: true });
    },
    onError: (error) => {
      if (!isApiError(error) || error.code !== 'wrong_password') return;
      passwordField()?.focus();
      passwordField()?.select();
    },
  });
  const wrongPassword = isApiError(erase.error) && erase.error.code === 'wrong_password';
  const fieldError = missing ? NO_PASSWORD : wrongPassword ? erase.error?.message : undefined;
  const formError = erase.error && !wrongPassword ? (serverMessage(erase.error) ?? FAILED) : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setMissing(!password);
    if (!password) {
      erase.reset();
      passwordField()?.focus();
      return;
    }
    erase.mutate(password);
  };

  const actions = (
    <>
      <button type="button" className="button" onClick={onClose} disabled={erase.isPending}>
        Cancel
      </button>
      <button type="submit" form={formId} className="button button-danger" disabled={erase.isPending}>
        {erase.isPending ? 'Erasing…' : 'Erase my account'}
      </button>
    </>
  );

  return (
    <Modal title="Erase your account?" onClose={erase.isPending ? undefined : onClose} actions={actions}>
      <form id={formId} ref={form} className="stack" noValidate onSubmit={submit}>
        <p>
          Your name, email, password and the texts of your comments will be erased for good: no one can recover them,
          not even an administrator. Your comments stay in their threads, marked as removed. You will be signed out
          everywhere.
        </p>
        <p>
          <strong>This cannot be undone.</strong>
        </p>
        <TextField
          label="Current password"
          name="password"
          type="password"
          autoComplete="current-password"
          autoFocus
          error={fieldError}
          readOnly={erase.isPending}
        />
        {formError && (
          <p className="form-error" role="alert">
            {formError}
          </p>
        )}
      </form>
    </Modal>
  );
}
