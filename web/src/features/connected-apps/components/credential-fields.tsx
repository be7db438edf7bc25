import { TextField } from '../../../components/ui/text-field';
import type { Credentials, FieldErrors } from '../credentials';

export interface CredentialFieldsProps {
  credentials: Credentials;
  errors: FieldErrors<Credentials>;
  onChange: (field: keyof Credentials, value: string) => void;
  /** Says what the account name usually is there. */
  usernameHint: string;
  /** Says which password goes here (an app password, often). */
  passwordHint: string;
}

/** The account that signs in: its name, and its password, which the browser must not fill in. */
export function CredentialFields({ credentials, errors, onChange, usernameHint, passwordHint }: CredentialFieldsProps) {
  return (
    <>
      <TextField
        label="Account name"
        name="username"
        value={credentials.username}
        onChange={(e) => onChange('username', e.target.value)}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint={usernameHint}
        error={errors.username}
      />
      {/* new-password: the browser must not fill in the password of Needl itself. */}
      <TextField
        label="Password"
        name="password"
        type="password"
        value={credentials.password}
        onChange={(e) => onChange('password', e.target.value)}
        autoComplete="new-password"
        hint={`${passwordHint} It is kept sealed on this server and never shown again.`}
        error={errors.password}
      />
    </>
  );
}
