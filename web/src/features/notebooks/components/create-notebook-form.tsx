import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/ui/text-field';
import type { Notebook } from '../api/notebook-api';
import { refusalText } from '../failure-text';
import { useCreateNotebook } from '../hooks/use-notebook-mutations';
import { checkNotebookName } from '../notebook-name';

export interface CreateNotebookFormProps {
  onCreated: (notebook: Notebook) => void;
  /** The field's label; "New notebook" unless the form sits in a picker. */
  label?: string;
}

/**
 * Names a new notebook: a blank name gets 'Please create a Notebook' without a call; the
 * server's refusal (a name already in use) is shown under the field.
 */
export function CreateNotebookForm({ onCreated, label = 'New notebook' }: CreateNotebookFormProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const create = useCreateNotebook();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = checkNotebookName(name);
    if (!check.ok) {
      setError(check.error);
      return;
    }
    setError(undefined);
    create.mutate(check.name, {
      onSuccess: (notebook) => {
        setName('');
        onCreated(notebook);
      },
      onError: (failure) => setError(refusalText(failure, 'The notebook could not be created. Please try again.')),
    });
  };

  return (
    <form className="create-notebook-form" onSubmit={submit} noValidate>
      <TextField
        label={label}
        name="name"
        value={name}
        placeholder="Notebook name"
        autoComplete="off"
        error={error}
        onChange={(event) => {
          setName(event.target.value);
          if (error) setError(undefined);
        }}
      />
      <button type="submit" className="button" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create'}
      </button>
    </form>
  );
}
