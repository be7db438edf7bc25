import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { peopleQueries, type Person } from '../api/people-api';
import { useEditPerson } from '../hooks/use-edit-person';
import { PersonPrioritySelect } from './priority-select';
import { ArrowLeftIcon } from '../../../components/ui/icons';

export const NAME_REQUIRED = 'Please enter a name';

function NameForm({ person }: { person: Person }) {
  const edit = useEditPerson();
  const [name, setName] = useState(person.people_name);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(NAME_REQUIRED);
    setError(null);
    if (name.trim() !== person.people_name) edit.mutate({ peopleId: person.people_id, name });
  };
  return (
    <form className="person-name-form" onSubmit={submit}>
      <input className="input" aria-label="Name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      <button type="submit" className="button button-primary">
        Save name
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** One contact: their name and priority (each saved at once, put back if refused) and contacts. */
export function ContactDetail({ peopleId }: { peopleId: string }) {
  const person = useQuery({ ...peopleQueries.person(peopleId), meta: { toast: false } });
  const edit = useEditPerson();
  if (person.isPending) return <Spinner label="Loading the contact" />;
  if (person.isError) {
    const missing = isApiError(person.error) && person.error.status === 404;
    return (
      <div className="card stack" role="alert">
        <p>{missing ? 'This contact was not found.' : 'The contact could not be loaded.'}</p>
        <Link to="/settings/contacts">Back to contacts</Link>
      </div>
    );
  }
  const p = person.data;
  return (
    <section className="card stack" aria-labelledby="contact-heading">
      <Link to="/settings/contacts" className="small">
        <ArrowLeftIcon size={14} /> All contacts
      </Link>
      <h2 id="contact-heading" className="card-title">
        {p.people_name}
      </h2>
      <NameForm key={p.people_name} person={p} />
      <PersonPrioritySelect
        label="Priority"
        value={p.people_priority}
        onChange={(priority) => priority && edit.mutate({ peopleId: p.people_id, priority })}
      />
      <h3 className="small muted">Contacts</h3>
      <ul aria-label="Contacts">
        {p.contacts.map((c) => (
          <li key={`${c.contact_source}/${c.contact_id}`}>
            {c.contact_name} <span className="small muted">({c.contact_id}, {c.contact_source})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
