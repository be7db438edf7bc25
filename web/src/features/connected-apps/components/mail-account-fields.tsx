import { useId } from 'react';
import { TextField } from '../../../components/ui/text-field';
import { defaultPort, SECURITY_CHOICES, type DraftErrors, type MailDraft } from '../mail-account';

export interface MailAccountFieldsProps {
  draft: MailDraft;
  errors: DraftErrors;
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
      <fieldset className="mail-fieldset" aria-describedby={plainHint}>
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
      <TextField
        label="Account name"
        name="username"
        value={draft.username}
        onChange={(e) => onChange('username', e.target.value)}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint="Usually your whole email address."
        error={errors.username}
      />
      {/* new-password: the browser must not fill in the password of Needl itself. */}
      <TextField
        label="Password"
        name="password"
        type="password"
        value={draft.password}
        onChange={(e) => onChange('password', e.target.value)}
        autoComplete="new-password"
        hint="Gmail, iCloud, Yahoo and others want an app password here, made in your account’s security settings. It is kept sealed on this server and never shown again."
        error={errors.password}
      />
    </>
  );
}
