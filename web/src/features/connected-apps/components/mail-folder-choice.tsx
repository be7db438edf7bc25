export interface MailFolderChoiceProps {
  /** The folders offered, in the order the server lists them. */
  folders: readonly string[];
  chosen: ReadonlySet<string>;
  onToggle: (folder: string) => void;
  legend: string;
  /** Says more under the legend. */
  hint?: string;
  /** Focuses the first folder when shown (the choice replaced the button that opened it). */
  autoFocus?: boolean;
}

/** A mailbox's folders as checkboxes, one a line, named as the mail server names them. */
export function MailFolderChoice({ folders, chosen, onToggle, legend, hint, autoFocus = false }: MailFolderChoiceProps) {
  return (
    <fieldset className="connection-fieldset">
      <legend className="field-label">{legend}</legend>
      {hint && <p className="small muted">{hint}</p>}
      <ul className="mail-folder-list">
        {folders.map((folder, i) => (
          <li key={folder}>
            <label className="checkbox-label">
              <input
                type="checkbox"
                className="checkbox"
                checked={chosen.has(folder)}
                onChange={() => onToggle(folder)}
                autoFocus={autoFocus && i === 0}
              />
              <span className="mail-folder-name">{folder}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Returns `chosen` with `folder` added, or taken out when it was there. */
export function toggled(chosen: ReadonlySet<string>, folder: string): Set<string> {
  const next = new Set(chosen);
  if (next.has(folder)) next.delete(folder);
  else next.add(folder);
  return next;
}
