import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Popover } from '../../../components/ui/popover';
import { Spinner } from '../../../components/ui/spinner';
import type { CardActionTarget } from '../../../lib/card-actions';
import { useCardScope } from '../../../lib/card-details';
import { PRIORITIES, peopleQueries } from '../api/people-api';
import { contactPath } from './contacts-manager';

/** The person behind the author, asked for when the popup opens (which adds them at first sight). */
function ContactInfo({ author, source }: { author: string; source: string }) {
  const contacts = JSON.stringify([{ contact_id: author, contact_name: author }]);
  const person = useQuery(peopleQueries.contactInfo(contacts, source));
  if (person.isPending) return <Spinner label="Loading the contact" />;
  if (person.isError) return <p role="alert">The contact could not be loaded.</p>;
  const priority = PRIORITIES.find((p) => p.value === person.data.people_priority)?.label;
  return (
    <div className="contact-popup">
      <strong>{person.data.people_name}</strong>
      <span className="small muted">Priority: {priority}</span>
      <Link to={contactPath(person.data.people_id)}>Manage Contact</Link>
    </div>
  );
}

/**
 * A card's author as a contact: a button that opens a popup with the person behind them and a
 * "Manage Contact" link. Hidden for shared data (cards read in a channel) and cards with no author.
 */
export function CardContact({ target }: { target: CardActionTarget }) {
  const scope = useCardScope();
  const [open, setOpen] = useState(false);
  if (!target.author || scope.channelId) return null;
  return (
    <Popover
      trigger={target.author}
      triggerLabel={`Contact: ${target.author}`}
      title={`Contact ${target.author}`}
      open={open}
      onOpenChange={setOpen}
      triggerClassName="button button-quiet small"
    >
      <ContactInfo author={target.author} source={target.source} />
    </Popover>
  );
}
