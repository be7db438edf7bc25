import { useInfiniteQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import { peopleQueries, type Person, type Priority } from '../api/people-api';
import { useEditPerson } from '../hooks/use-edit-person';
import { PersonPrioritySelect } from './priority-select';

/** The contacts route a person's detail lives at ("Manage Contact" links here). */
export const contactPath = (peopleId: string) => `/settings/contacts/${encodeURIComponent(peopleId)}`;

function PersonRow({ person }: { person: Person }) {
  const edit = useEditPerson();
  return (
    <li className="person-row" data-testid="person-row">
      <span className="person-row-name">
        <Link to={contactPath(person.people_id)}>{person.people_name}</Link>
        <span className="small muted">{person.contacts.map((c) => c.contact_id).join(', ')}</span>
      </span>
      <PersonPrioritySelect
        label={`Priority of ${person.people_name}`}
        value={person.people_priority}
        onChange={(priority) => priority && edit.mutate({ peopleId: person.people_id, priority })}
      />
    </li>
  );
}

/** Manage Contacts: the user's people by name, filtered by name and priority, 20 at a time. */
export function ContactsManager() {
  const [q, setQ] = useState('');
  const [priority, setPriority] = useState<Priority | ''>('');
  const filter = { q: useDeferredValue(q), priority };
  const people = useInfiniteQuery(peopleQueries.list(filter));
  return (
    <section className="card stack" aria-labelledby="contacts-heading">
      <h2 id="contacts-heading" className="card-title">
        Your contacts
      </h2>
      <div className="person-filters">
        <input className="input" type="search" aria-label="Find a contact" placeholder="Find a contact" value={q} onChange={(e) => setQ(e.target.value)} />
        <PersonPrioritySelect label="Show priority" value={priority} onChange={setPriority} any="All priorities" />
      </div>
      <ListState
        query={people}
        loadingLabel="Loading your contacts"
        errorTitle="Your contacts could not be loaded"
        isEmpty={(data) => data.pages.every((page) => page.results.length === 0)}
        emptyTitle="No contacts yet"
        emptyHint={<p>Open the author of a card to add them here; then set their name and priority.</p>}
      >
        {(data) => (
          <ul className="stack" aria-label="Your contacts">
            {data.pages
              .flatMap((page) => page.results)
              .map((person) => (
                <PersonRow key={person.people_id} person={person} />
              ))}
          </ul>
        )}
      </ListState>
      {people.hasNextPage && (
        <button type="button" className="button" disabled={people.isFetchingNextPage} onClick={() => void people.fetchNextPage()}>
          {people.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
