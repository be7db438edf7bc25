import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { isApiError } from '../../../lib/api-client';
import { firstErrors, SERVER_FIELD_ERRORS, type FieldErrors } from '../auth-schemas';

/**
 * Validates a form on submit against `schema` and, when it passes, runs `submit`.
 * The server's message is returned for the form to show inline (no toast): under the field it
 * concerns when the form has that field (the password policy's reason under the password),
 * otherwise above the button.
 */
export function useAuthForm<T extends Record<string, string>>(schema: z.ZodType<T>, submit: (values: T) => Promise<unknown>) {
  const [errors, setErrors] = useState<FieldErrors<T>>({});
  const [fields, setFields] = useState<string[]>([]);
  const mutation = useMutation({ mutationFn: submit, meta: { toast: false } });
  const error = mutation.error;
  const field = isApiError(error) ? SERVER_FIELD_ERRORS[error.code] : undefined;
  const serverField = field && fields.includes(field) ? field : undefined;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(event.currentTarget));
    setFields(Object.keys(values));
    const result = schema.safeParse(values);
    if (!result.success) {
      setErrors(firstErrors(result.error));
      return;
    }
    setErrors({});
    mutation.mutate(result.data);
  };

  return {
    errors: serverField && error ? { ...errors, [serverField]: error.message } : errors,
    serverError: error && !serverField ? error.message : null,
    pending: mutation.isPending,
    /** The server's code for the refusal shown, if any. */
    errorCode: isApiError(error) ? error.code : null,
    succeeded: mutation.isSuccess,
    data: mutation.data,
    handleSubmit,
  };
}
