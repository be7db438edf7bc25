import { useId } from 'react';
import { TextField } from '../../../components/ui/text-field';
import type { FieldErrors } from '../credentials';
import { defaultPort, SECURITY_CHOICES, type MailDraft } from '../mail-account';
import { CredentialFields } from './credential-fields';

export interface MailAccountFieldsProps {
  draft: MailDraft;
  errors: FieldErrors<MailDraft>;
  onChange: <K extends keyof MailDraft>(field: K, value: MailDraft[K]) => void;
}

/** Where the mail is and whose it is: the server, how it is reached, the account and its password. */
export function MailAccountFields({ draft, errors, onChange }: MailAccountFieldsProps) {
  const plainHint = useId();
  return (
    <>
      <TextField
        label="Server"
        name="host"
        value={draft.host}
        onChange={(e) => onChange('host', e.target.value)}
        placeholder="imap.example.com"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.host}
      />
      <fieldset className="connection-fieldset" aria-describedby={plainHint}>
        <legend className="field-label">Security</legend>
        {SECURITY_CHOICES.map((choice) => (
          <label key={choice.value} className="checkbox-label">
            <input
              type="radio"
              name="security"
              value={choice.value}
              checked={draft.security === choice.value}
              onChange={() => onChange('security', choice.value)}
            />
            {choice.label}
          </label>
        ))}
        <p id={plainHint} className="small muted">
          Plain sends the password unencrypted: this server accepts it only for mail servers on networks its operator
          allowed, such as a server on your local network or intranet.
        </p>
      </fieldset>
      <TextField
        label="Port (optional)"
        name="port"
        value={draft.port}
        onChange={(e) => onChange('port', e.target.value)}
        placeholder={String(defaultPort(draft.security))}
        inputMode="numeric"
        autoComplete="off"
        error={errors.port}
      />
      <CredentialFields
        credentials={draft}
        errors={errors}
        onChange={onChange}
        usernameHint="Usually your whole email address."
        passwordHint="Gmail, iCloud, Yahoo and others want an app password here, made in your account’s security settings."
      />
    </>
  );
}
