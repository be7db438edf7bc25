/** Form rules for sign-in and sign-up, with the default messages the spec names. */
import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;

const required = (label: string) => z.string().trim().min(1, `${label} is a required field`);

const email = required('Email').email('Email must be a valid email');

export const signInSchema = z.object({
  email,
  password: z.string().min(1, 'Password is a required field'),
});

export const signUpSchema = z.object({
  username: required('Username'),
  email,
  password: z
    .string()
    .min(1, 'Password is a required field')
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
});

const newPassword = z
  .string()
  .min(1, 'Password is a required field')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`);

/** Asking for a reset link. */
export const forgotSchema = z.object({ email });

/** Choosing a new password with a reset link; the two entries must match. */
export const resetSchema = z
  .object({ password: newPassword, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords differ' });

/**
 * Server refusals that belong under a field rather than above the button: the password policy's
 * reason goes under the new password.
 */
export const SERVER_FIELD_ERRORS: Record<string, string> = {
  weak_password: 'password',
  password_too_long: 'password',
};

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

/** Returns the first message for each field that failed. */
export function firstErrors<T>(error: z.ZodError<T>): FieldErrors<T> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0]);
    errors[field] ??= issue.message;
  }
  return errors as FieldErrors<T>;
}
