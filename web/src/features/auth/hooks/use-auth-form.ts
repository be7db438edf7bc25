import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { firstErrors, type FieldErrors } from '../auth-schemas';

/**
 * Validates a form on submit against `schema` and, when it passes, runs `submit`.
 * The server's message is returned for the form to show inline (no toast).
 */
export function useAuthForm<T extends Record<string, string>>(schema: z.ZodType<T>, submit: (values: T) => Promise<unknown>) {
  const [errors, setErrors] = useState<FieldErrors<T>>({});
  const mutation = useMutation({ mutationFn: submit, meta: { toast: false } });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const result = schema.safeParse(values);
    if (!result.success) {
      setErrors(firstErrors(result.error));
      return;
    }
    setErrors({});
    mutation.mutate(result.data);
  };

  return {
    errors,
    serverError: mutation.error ? mutation.error.message : null,
    pending: mutation.isPending,
    handleSubmit,
  };
}
