import { Fragment } from 'react';
import { REDACTED } from '../audit-format';

const REDACTED_JSON = JSON.stringify(REDACTED);

export interface JsonViewProps {
  value: unknown;
  /** Names the block for assistive technology ("Payload", "State"). */
  label: string;
}

/** A JSON value, indented, with the server's "[redacted]" stand-ins muted so they read as absent secrets. */
export function JsonView({ value, label }: JsonViewProps) {
  const text = JSON.stringify(value ?? null, null, 2);
  const parts = text.split(REDACTED_JSON);
  return (
    <pre className="audit-json" aria-label={label} tabIndex={0}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && (
            <span className="audit-redacted" title="Hidden by the server">
              {REDACTED_JSON}
            </span>
          )}
        </Fragment>
      ))}
    </pre>
  );
}
