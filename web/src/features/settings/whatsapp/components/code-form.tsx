import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isApiError, serverMessage } from '../../../../lib/api-client';
import { CODE_LENGTH } from '../api/whatsapp-api';

export const ENTER_THE_CODE = `Enter the ${CODE_LENGTH} digits of the code.`;
export const VERIFY_FAILED = 'The code could not be checked just now. Please try again in a moment.';

/** The server writes its sentences in lower case; under a field they start with a capital. */
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Keeps the digits of what was typed or pasted ("123 456" is 123456), at most a code's length. */
export const digitsOf = (text: string) => text.replace(/\D/g, '').slice(0, CODE_LENGTH);

export interface CodeFormProps {
  onVerify: (code: string) => void;
  pending: boolean;
  /** The server's refusal of the last code tried, if any. */
  error: Error | null;
  /** Called when the code is edited, so the last refusal can go. */
  onEdit?: () => void;
}

/**
 * The one-time code field and Verify. The field keeps digits only (so a pasted "123 456" fits;
 * no `maxLength`, which would cut the paste before its space is dropped) and lets the phone fill in the
 * code it received (`autocomplete="one-time-code"`, a number pad). A code that is not six digits
 * is not sent; the server's refusal (wrong code and the tries left, expired, none outstanding) is
 * written under the field, which takes focus with its text selected to type the code again.
 */
export function CodeForm({ onVerify, pending, error, onEdit }: CodeFormProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [tooShort, setTooShort] = useState(false);

  useEffect(() => {
    if (error) input.current?.select();
  }, [error]);

  const problem = tooShort
    ? ENTER_THE_CODE
    : error
      ? capitalised((isApiError(error) && error.status < 500 ? serverMessage(error) : null) ?? VERIFY_FAILED)
      : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    if (code.length !== CODE_LENGTH) {
      setTooShort(true);
      input.current?.focus();
      return;
    }
    setTooShort(false);
    onVerify(code);
  };

  return (
    <form className="stack" noValidate onSubmit={submit} aria-label="Verify the code">
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {CODE_LENGTH}-digit code
        </label>
        <input
          ref={input}
          id={id}
          className="input otp-input"
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          value={code}
          onChange={(e) => {
            setCode(digitsOf(e.target.value));
            setTooShort(false);
            onEdit?.();
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
        />
        {problem && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {problem}
          </p>
        )}
      </div>
      <div>
        <button className="button button-primary" type="submit" disabled={pending}>
          {pending ? 'Verifying…' : 'Verify'}
        </button>
      </div>
    </form>
  );
}
