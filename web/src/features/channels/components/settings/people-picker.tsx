import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { ListState } from '../../../../components/ui/list-state';
import { userQueries } from '../../../../lib/queries/user-queries';
import { channelQueries, type Person } from '../../api/channel-api';

export interface PeoplePickerProps {
  /** The group whose people are offered (`create group` for one being made). */
  channelId: string;
  chosen: readonly Person[];
  onChange: (chosen: Person[]) => void;
}

/**
 * Finds people of the organisation by name or email and picks them; those already in the group
 * (and the user) are shown but cannot be picked.
 */
export function PeoplePicker({ channelId, chosen, onChange }: PeoplePickerProps) {
  const id = useId();
  const [q, setQ] = useState('');
  const query = useDeferredValue(q);
  const people = useQuery(channelQueries.people(channelId, query));
  const self = useQuery(userQueries.profile()).data?.id;
  const picked = new Set(chosen.map((p) => p.user_id));
  const toggle = (person: Person) =>
    onChange(picked.has(person.user_id) ? chosen.filter((p) => p.user_id !== person.user_id) : [...chosen, person]);

  return (
    <div className="people-picker stack">
      <div className="field">
        <label className="field-label" htmlFor={id}>
          Find people
        </label>
        <input id={id} className="input" type="search" placeholder="Name or email" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      <ListState
        query={people}
        compact
        loadingLabel="Finding people"
        errorTitle="People could not be loaded"
        isEmpty={(list) => list.length === 0}
        emptyTitle="Nobody matches."
      >
        {(list) => (
          <ul className="people-list" aria-label="People">
            {list.map((person) => {
              const inGroup = person.role !== null || person.user_id === self;
              return (
                <li key={person.user_id}>
                  <label className="checkbox-label">
                    <input
                      type="checkbox"
                      checked={inGroup || picked.has(person.user_id)}
                      disabled={inGroup}
                      onChange={() => toggle(person)}
                    />
                    <span>
                      {person.username} {person.email && <span className="small muted">{person.email}</span>}
                      {inGroup && <span className="small muted"> — {person.user_id === self ? 'you' : 'in the group'}</span>}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </ListState>
      {chosen.length > 0 && (
        <p className="small" aria-live="polite">
          Chosen: {chosen.map((p) => p.username).join(', ')}
        </p>
      )}
    </div>
  );
}
