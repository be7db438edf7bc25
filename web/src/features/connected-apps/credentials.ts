/** What both connection forms ask of the account that signs in, and how they check it. */

/** The first problem with each field of a form, found before anything is sent. */
export type FieldErrors<D> = Partial<Record<keyof D, string>>;

export interface Credentials {
  username: string;
  password: string;
}

/** Returns what is missing of the account name and password. */
export function checkCredentials({ username, password }: Credentials): FieldErrors<Credentials> {
  const errors: FieldErrors<Credentials> = {};
  if (!username.trim()) errors.username = 'Account name is a required field';
  if (!password) errors.password = 'Password is a required field';
  return errors;
}
