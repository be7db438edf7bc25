import { useParams } from 'react-router';
import { ContactDetail, ContactsManager } from '../../features/people/pages';
import { SettingsNav } from '../../features/settings';

/** settings/contacts ("Manage Contacts") and a contact's detail, settings/contacts/{people_id}. */
export function ContactsPage() {
  const { peopleId } = useParams();
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      {peopleId ? <ContactDetail key={peopleId} peopleId={peopleId} /> : <ContactsManager />}
    </div>
  );
}
