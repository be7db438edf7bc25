/**
 * People feature: the user's contact book. The Manage Contacts page (`/settings/contacts`: the
 * people by name, filtered by name and priority, each priority changed in place) and a contact's
 * detail (`/settings/contacts/{people_id}`: name and priority, both applied at once and put back
 * with a toast when refused), and the contact popup on document cards (the author, resolved to a
 * person at first sight, with a "Manage Contact" link; hidden for shared data). It owns the calls
 * under /people; its query keys live in src/lib/queries because the live socket invalidates them.
 * The Manage Contacts page and a contact's detail are a second entry, `pages.ts`, which the app
 * loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export { CardContact } from './components/card-contact';
export { contactPath } from './components/contacts-manager';
