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
