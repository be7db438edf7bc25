import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { checkFolders, MAX_FOLDERS } from '../mail-account';
import { refusalText } from '../refusal';
import { useChooseMailFolders } from '../hooks/use-mail-mutations';
import { MailFolderChoice, toggled } from './mail-folder-choice';

export interface MailFoldersEditorProps {
  /** The folders read now. */
  folders: readonly string[];
  onDone: () => void;
}

/**
 * Changes which folders the connected mailbox reads. Listing the server's folders needs the
 * password, which is not kept where the page can have it, so the folders read now are offered
 * with a box to name another as the mail server names it; reconnecting lists them all.
 */
export function MailFoldersEditor({ folders, onDone }: MailFoldersEditorProps) {
  const [offered, setOffered] = useState<string[]>(() => [...folders]);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(folders));
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const choose = useChooseMailFolders();
  const addId = useId();

  const add = () => {
    const folder = name.trim();
    if (!folder) return;
    if (!offered.includes(folder)) setOffered((before) => [...before, folder]);
    setChosen((before) => new Set(before).add(folder));
    setName('');
    setProblem(null);
  };

  // Enter in the box adds the folder rather than saving the form.
  const addOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const picked = offered.filter((f) => chosen.has(f));
    const refused = checkFolders(picked);
    setProblem(refused);
    if (!refused) choose.mutate(picked, { onSuccess: onDone });
  };

  const refusal = refusalText(choose.error);
  return (
    <form className="stack connection-form" noValidate onSubmit={save} aria-label="Folders to read">
      <MailFolderChoice
        legend="Folders to read"
        hint={`Untick a folder to stop reading it, or add another by its name on the mail server (at most ${MAX_FOLDERS}).`}
        folders={offered}
        chosen={chosen}
        onToggle={(folder) => setChosen((before) => toggled(before, folder))}
        autoFocus
      />
      <div className="field">
        <label className="field-label" htmlFor={addId}>
          Add folder
        </label>
        <div className="mail-add-folder">
          <input
            id={addId}
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={addOnEnter}
            placeholder="Archive"
            autoComplete="off"
            spellCheck={false}
          />
          <button type="button" className="button" onClick={add} disabled={!name.trim()}>
            Add
          </button>
        </div>
      </div>
      {(problem ?? refusal) && (
        <p className="form-error" role="alert">
          {problem ?? refusal}
        </p>
      )}
      <div className="connection-actions">
        <button className="button button-primary" type="submit" disabled={choose.isPending}>
          {choose.isPending ? 'Saving…' : 'Save folders'}
        </button>
        <button className="button" type="button" onClick={onDone} disabled={choose.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
