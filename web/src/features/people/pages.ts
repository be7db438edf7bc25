/** Manage Contacts and a contact's detail, a second entry to the feature: the app loads them on demand. */
export { ContactDetail } from './components/contact-detail';
export { ContactsManager } from './components/contacts-manager';
