import { useId, type FormEvent, type ReactNode } from 'react';

export interface ConnectionFormProps {
  title: string;
  /** The form's accessible name ("Mail account"). */
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The server listed what it found: the button connects now, where it checked before. */
  checked: boolean;
  /** The button's words before the check ("Check folder"). */
  checkLabel: string;
  checking: boolean;
  connecting: boolean;
  /** Why the form cannot be sent, or why the server refused it; each is an alert. */
  problems: ReadonlyArray<string | null>;
  /** Shown as Cancel when the form replaces a connection's summary. */
  onCancel?: () => void;
  /** The fields, and what the check listed under them. */
  children: ReactNode;
}

/**
 * A connection's form in two steps, as a card: one button checks the account, then connects it.
 * The fields and what the check found are the connection's own (`children`).
 */
export function ConnectionForm(props: ConnectionFormProps) {
  const { title, label, onSubmit, checked, checkLabel, checking, connecting, problems, onCancel, children } = props;
  const headingId = useId();
  const pending = checking || connecting;
  const step = checked ? (connecting ? 'Connecting…' : 'Connect') : checking ? 'Checking…' : checkLabel;
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <h3 id={headingId} className="card-title">
        {title}
      </h3>
      <form className="stack connection-form" noValidate onSubmit={onSubmit} aria-label={label}>
        {children}
        {problems.map(
          (problem, i) =>
            problem && (
              <p key={i} className="form-error" role="alert">
                {problem}
              </p>
            ),
        )}
        <div className="connection-actions">
          <button className="button button-primary" type="submit" disabled={pending}>
            {step}
          </button>
          {onCancel && (
            <button className="button" type="button" onClick={onCancel} disabled={pending}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
